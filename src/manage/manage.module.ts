import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { ManageAssetsController } from './manage-assets.controller';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { OverviewController } from './overview.controller';
import { SignInController } from './sign-in.controller';
import { ManageUsersController } from './users.controller';

/** The editing pages (editing.md); registered only when CALENDAR_MANAGE is on. */
@Module({
  imports: [UsersModule],
  controllers: [SignInController, ManageAssetsController, OverviewController, ManageUsersController],
  providers: [ManageViews, ManageGuard, ManageErrorsFilter],
})
export class ManageModule {}
