import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { SourcesModule } from '../sources';
import { SyncModule } from '../sync';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { EventFormController } from './event-form.controller';
import { EventFormHooks } from './event-form-hooks';
import { EventFormPickers } from './event-form-pickers';
import { EventFormService } from './event-form.service';
import { EventFormViews } from './event-form-views';
import { EventsListController } from './events-list.controller';
import { EventsListService } from './events-list.service';
import { ManageAssetsController } from './manage-assets.controller';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageOrganizersController } from './organizers.controller';
import { OverviewController } from './overview.controller';
import { OverviewService } from './overview.service';
import { ReviewActions } from './review-actions';
import { ReviewDeclinesHook } from './review-declines.hook';
import { ReviewHooks } from './review-hooks';
import { ReviewQueue } from './review-queue';
import { ReviewController } from './review.controller';
import { ReviewRepository } from './review.repository';
import { RecordCounts } from './record-counts';
import { SignInController } from './sign-in.controller';
import { ManageSourcesController } from './sources.controller';
import { ManageCategoriesController, ManageTagsController } from './terms.controller';
import { ManageUsersController } from './users.controller';
import { ManageVenuesController } from './venues.controller';

/** The editing pages (editing.md); registered only when CALENDAR_MANAGE is on. */
@Module({
  imports: [DiscoveryModule, UsersModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule, SourcesModule, SyncModule],
  controllers: [
    SignInController,
    ManageAssetsController,
    OverviewController,
    EventsListController,
    ReviewController,
    EventFormController,
    ManageVenuesController,
    ManageOrganizersController,
    ManageCategoriesController,
    ManageTagsController,
    ManageUsersController,
    ManageSourcesController,
  ],
  providers: [
    ManageViews,
    ManageGuard,
    ManageErrorsFilter,
    RecordCounts,
    EventFormHooks,
    EventFormService,
    EventFormPickers,
    EventFormViews,
    EventsListService,
    OverviewService,
    ReviewHooks,
    ReviewRepository,
    ReviewQueue,
    ReviewActions,
    ReviewDeclinesHook,
  ],
})
export class ManageModule {}
