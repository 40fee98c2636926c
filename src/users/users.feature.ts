import type { Feature } from '../common/feature/feature';
import { ApplicationPasswordEntity } from './application-password.entity';
import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';
import { userCreate, userDelete, userList, userPassword, userRevoke } from './users.commands';
import { UsersModule } from './users.module';

/** Users and their application passwords (auth.md); managed from the CLI and the editing pages; the pages' sessions. */
export const USERS_FEATURE: Feature = {
  name: 'users',
  modules: [UsersModule],
  entities: [UserEntity, ApplicationPasswordEntity, SessionEntity],
  commands: { 'user:create': userCreate, 'user:list': userList, 'user:password': userPassword, 'user:revoke': userRevoke, 'user:delete': userDelete },
};
