import { Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { EventFormController } from './event-form.controller';
import { EventFormService } from './event-form.service';
import { EventFormViews } from './event-form-views';
import { ManageAssetsController } from './manage-assets.controller';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { OverviewController } from './overview.controller';
import { SignInController } from './sign-in.controller';

/** The editing pages (editing.md); registered only when CALENDAR_MANAGE is on. */
@Module({
  imports: [UsersModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule],
  controllers: [SignInController, ManageAssetsController, OverviewController, EventFormController],
  providers: [ManageViews, ManageGuard, ManageErrorsFilter, EventFormService, EventFormViews],
})
export class ManageModule {}
