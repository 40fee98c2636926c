export { UsersModule } from './users.module';
export { UsersService, UserInputError } from './users.service';
export { AuthService } from './auth.service';
export { UserEntity } from './user.entity';
export { SessionsService, type OpenSession } from './sessions.service';
