import { Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { SourcesModule } from '../sources/sources.module';
import { SyncModule } from '../sync';
import { UsersModule } from '../users';
import { EventsListController } from './events-list.controller';
import { EventsListService } from './events-list.service';
import { OverviewService } from './overview.service';
import { ManageAssetsController } from './manage-assets.controller';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { OverviewController } from './overview.controller';
import { SignInController } from './sign-in.controller';

/** The editing pages (editing.md); registered only when CALENDAR_MANAGE is on. */
@Module({
  imports: [UsersModule, EventsModule, SyncModule, SourcesModule],
  controllers: [SignInController, ManageAssetsController, OverviewController, EventsListController],
  providers: [ManageViews, ManageGuard, ManageErrorsFilter, EventsListService, OverviewService],
})
export class ManageModule {}
