import { Module } from '@nestjs/common';
import { SourcesModule } from '../sources/sources.module';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { ManageAssetsController } from './manage-assets.controller';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { OverviewController } from './overview.controller';
import { SignInController } from './sign-in.controller';
import { ManageSourcesController } from './sources.controller';
import { ManageUsersController } from './users.controller';

/** The editing pages (editing.md); registered only when CALENDAR_MANAGE is on. */
@Module({
  imports: [UsersModule, SourcesModule, TaxonomiesModule],
  controllers: [SignInController, ManageAssetsController, OverviewController, ManageUsersController, ManageSourcesController],
  providers: [ManageViews, ManageGuard, ManageErrorsFilter],
})
export class ManageModule {}
