import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EventFormHooks, EventFormPickers, type EventFormValues, extFieldViews, type FieldError, messageOf, newEventValues } from '../manage';
import { MAX_LINKS, SUBMISSION_ORGANIZER_FIELDS, SUBMISSION_VENUE_FIELDS, type SubmitterValues } from './submission-values';
import { SubmissionWriter } from './submission-writer';

type Json = Record<string, unknown>;

/** What the controller hands over to show the form. */
export interface SubmissionFormView {
  values: EventFormValues;
  /** What an anonymous submitter typed about itself; null for a signed-in user. */
  submitter: SubmitterValues | null;
  /** The login of a signed-in submitter. */
  signedInAs?: string;
  formToken: string;
  stamp: string;
  errors?: FieldError[];
}

/**
 * The submission form's view model: the values with their messages, the venue and organizer
 * choices (published ones, found by a search on the server, a page at a time), the categories'
 * tree, the zones, and the form hooks' fields that ask to be on it.
 */
@Injectable()
export class SubmissionFormViews {
  private zoneList: string[] | undefined;

  constructor(
    private readonly pickers: EventFormPickers,
    private readonly hooks: EventFormHooks,
    private readonly writer: SubmissionWriter,
    private readonly config: AppConfig,
  ) {}

  /** The values of an empty form: an event an hour from the next whole hour, in the site's zone. */
  newValues(): EventFormValues {
    return newEventValues(this.config.timezone, this.hooks.all());
  }

  async build(view: SubmissionFormView): Promise<Json> {
    const { values } = view;
    const errors = view.errors ?? [];
    // Every read as an anonymous reader makes it: the form offers published items only.
    const [venues, organizers, chosen, categories] = await Promise.all([
      this.pickers.searchVenues(null, values.venue_search, values.venue_page),
      this.pickers.searchOrganizers(null, values.organizer_search, values.organizer_page),
      this.pickers.chosen(null, values.venue, values.organizers),
      this.pickers.categoryTree(null),
    ]);
    return {
      values,
      anonymous: view.submitter !== null,
      submitter: view.submitter ?? { name: '', email: '' },
      signedInAs: view.signedInAs,
      formToken: view.formToken,
      stamp: view.stamp,
      maxLinks: MAX_LINKS,
      errors,
      err: (field: string) => messageOf(errors, field),
      zones: this.zones(values.timezone),
      venuePicker: { chosen: chosen.venue, ...venues, newFields: SUBMISSION_VENUE_FIELDS },
      organizerPicker: { chosen: chosen.organizers, ...organizers, newFields: SUBMISSION_ORGANIZER_FIELDS },
      categories: categories.map((c) => ({ ...c, checked: values.categories.includes(c.id) })),
      extFields: extFieldViews(this.writer.fields(), values, errors),
    };
  }

  /** The IANA zones offered (the runtime's list with UTC first, and the posted one when it is another). */
  private zones(current: string): string[] {
    this.zoneList ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
    return current !== '' && !this.zoneList.includes(current) ? [current, ...this.zoneList] : this.zoneList;
  }
}
