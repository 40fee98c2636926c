import { Module } from '@nestjs/common';
import { AuthService } from './auth.service';
import { BootstrapAdminService } from './bootstrap-admin.service';
import { LimiterStore } from './limiter-store';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, UsersRepository, AuthService, BootstrapAdminService, LimiterStore, SessionsService, SessionsRepository],
  exports: [UsersService, AuthService, SessionsService, LimiterStore],
})
export class UsersModule {}
