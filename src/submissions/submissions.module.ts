import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventsModule } from '../events';
import { EventFormHooks, EventFormPickers } from '../manage';
import { OrganizersModule } from '../organizers';
import { PageAssets } from '../pages';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { SubmissionAuthor } from './submission-author';
import { SubmissionErrorsFilter } from './submission-errors.filter';
import { SubmissionFormViews } from './submission-form-views';
import { SubmissionLimits } from './submission-limits';
import { SubmissionRequests } from './submission-requests';
import { SubmissionStamps } from './submission-stamps';
import { SubmissionViews } from './submission-views';
import { SubmissionWriter } from './submission-writer';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsRepository } from './submissions.repository';
import { SubmittedEvents } from './submitted-events';
import { SubmitterHook } from './submitter.hook';

/**
 * The public submission form (editing.md §4); loaded only while CALENDAR_SUBMISSIONS is not off.
 * It shares the editing pages' form hooks and pickers (their own instances here, so the form
 * works with the editing pages off) and the public pages' stylesheet.
 */
@Module({
  imports: [DiscoveryModule, UsersModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule],
  controllers: [SubmissionsController],
  providers: [
    SubmissionsRepository,
    SubmissionStamps,
    SubmissionLimits,
    SubmissionAuthor,
    SubmissionRequests,
    SubmissionWriter,
    SubmissionFormViews,
    SubmissionViews,
    SubmittedEvents,
    SubmissionErrorsFilter,
    SubmitterHook,
    EventFormHooks,
    EventFormPickers,
    PageAssets,
  ],
})
export class SubmissionsModule {}
