import { Module } from '@nestjs/common';
import { AuthService } from './auth.service';
import { BootstrapAdminService } from './bootstrap-admin.service';
import { LimiterStore } from './limiter-store';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, AuthService, BootstrapAdminService, LimiterStore],
  exports: [UsersService, AuthService],
})
export class UsersModule {}
