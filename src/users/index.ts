export { UsersModule } from './users.module';
export { UsersService, UserInputError } from './users.service';
export { UsersRepository } from './users.repository';
export { SessionsRepository } from './sessions.repository';
export { AuthService } from './auth.service';
export { UserEntity } from './user.entity';
export { PERSISTENT_SESSION_SECONDS, SessionsService, type OpenSession } from './sessions.service';
export { LimiterStore, type LimiterOptions } from './limiter-store';
