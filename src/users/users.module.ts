import { Module } from '@nestjs/common';
import { AuthService } from './auth.service';
import { BootstrapAdminService } from './bootstrap-admin.service';
import { LimiterStore } from './limiter-store';
import { SessionsService } from './sessions.service';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, AuthService, BootstrapAdminService, LimiterStore, SessionsService],
  exports: [UsersService, AuthService, SessionsService],
})
export class UsersModule {}
