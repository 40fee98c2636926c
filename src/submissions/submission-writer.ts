import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { WpError } from '../common/errors';
import type { WriteParticipant } from '../database/write-participants';
import { type EventEntity, EventWriter, validatedEventInput } from '../events';
import { EventFormHooks, type EventFormField, EventFormPickers, type EventFormValues, type FieldError, formErrors } from '../manage';
import { SubmissionAuthor } from './submission-author';
import { SubmissionLimited, SubmissionLimits } from './submission-limits';
import { FORM_ID, refused, SubmissionRefused } from './submission-refusals';
import { submissionInput } from './submission-values';
import { SubmissionsRepository } from './submissions.repository';

/** Who sends the event: what an anonymous submitter typed, or a signed-in user (named by its login). */
export interface SubmittedBy {
  name: string;
  email: string;
  userId: number | null;
}

/** The write parameters of events and the ids of the submission form's inputs they belong to. */
const FIELD_OF: Record<string, string> = {
  title: 'title',
  description: 'description',
  start_date: 'start_date',
  end_date: 'end_date',
  all_day: 'all_day',
  timezone: 'timezone',
  venue: 'venue-none',
  organizer: 'organizer_search',
  categories: 'categories',
  cost: 'cost',
  website: 'website',
  image: 'image',
};

/**
 * Writes a submission (editing.md §4): a `pending` event written by the configured author through
 * the API's own write path (EventWriter, origin `submission`), so it has the API's checks, enters
 * the change feed and webhooks like any write, and takes the form hooks' fields into the same
 * write. Who sent it is kept in that write's transaction (a participant the origin declares), so
 * a refused or failed write leaves nothing. Only published venues and organizers and existing
 * categories are linked. The hourly limits count the submission just before the write and give
 * it back when the write refuses it.
 */
@Injectable()
export class SubmissionWriter {
  constructor(
    private readonly writer: EventWriter,
    private readonly pickers: EventFormPickers,
    private readonly hooks: EventFormHooks,
    private readonly repository: SubmissionsRepository,
    private readonly author: SubmissionAuthor,
    private readonly limits: SubmissionLimits,
  ) {}

  /** The form hooks' fields shown on the submission form. */
  fields(): EventFormField[] {
    return this.hooks.fields().filter((f) => f.onSubmissionForm === true);
  }

  /** Writes the submission; answers the new event's id. Throws SubmissionRefused with the form's problems. */
  async submit(values: EventFormValues, by: SubmittedBy, address: string): Promise<number> {
    const links = await this.links(values);
    const author = await this.author.actor();
    if (author === null) throw refused(503, 'Events cannot be submitted right now. Please try again later.', { 'retry-after': '3600' });
    const fields = this.fields();
    const input = submissionInput(values, links.venue, links.organizers, links.categories, fields);
    let prepared: ReturnType<typeof validatedEventInput>;
    try {
      prepared = validatedEventInput(true, input);
    } catch (err) {
      throw this.writeRefusal(err, fields);
    }
    try {
      await this.limits.take(address);
    } catch (err) {
      if (!(err instanceof SubmissionLimited)) throw err;
      throw limitRefusal(err);
    }
    try {
      const saved = await this.writer.create(author, prepared.dto, prepared.raw, { kind: 'submission', participants: [this.keeper(by)] });
      return Number(saved.id);
    } catch (err) {
      await this.limits.giveBack(address);
      throw this.writeRefusal(err, fields);
    }
  }

  /** The participant that keeps who sent the event, in the event's own write. */
  private keeper(by: SubmittedBy): WriteParticipant {
    return {
      written: (tx, result) => {
        const event = result as EventEntity;
        return this.repository.insert(tx, {
          eventId: event.id,
          submitterName: by.name,
          submitterEmail: by.email,
          userId: by.userId,
          submittedUtc: nowUtcSql(),
        });
      },
    };
  }

  /**
   * The venue, organizers and categories chosen, as ids, each checked as an anonymous reader
   * sees it: a venue or organizer that is not published, or a category that does not exist, is
   * a problem beside its field, whatever the author could link.
   */
  private async links(values: EventFormValues): Promise<{ venue: number | null; organizers: number[]; categories: number[] }> {
    const anonymous: Actor | null = null;
    const chosen = await this.pickers.chosen(anonymous, values.venue, values.organizers);
    const problems: FieldError[] = [];
    const venueGiven = /^\d+$/.test(values.venue);
    if (venueGiven && chosen.venue === null) problems.push({ field: 'venue-none', message: 'Choose a venue from the list, or a new venue.' });
    const organizerIds = new Set(values.organizers.filter((id) => /^\d+$/.test(id)));
    const published = new Set(chosen.organizers.map((o) => o.id));
    if ([...organizerIds].some((id) => !published.has(id))) problems.push({ field: 'organizer_search', message: 'Choose organizers from the list.' });
    const known = new Set((await this.pickers.categoryTree(anonymous)).map((c) => c.id));
    const categories = values.categories.filter((id) => /^\d+$/.test(id));
    if (categories.some((id) => !known.has(id))) problems.push({ field: 'categories', message: 'Choose categories from the list.' });
    if (problems.length > 0) throw new SubmissionRefused(400, problems);
    return {
      venue: venueGiven ? Number(values.venue) : null,
      organizers: [...published].map(Number),
      categories: [...new Set(categories)].map(Number),
    };
  }

  /** A refusal of the write path (400) as the form's problems, each beside its field; anything else as it is. */
  private writeRefusal(err: unknown, fields: readonly EventFormField[]): unknown {
    if (!(err instanceof WpError) || err.status !== 400) return err;
    const ext = new Set(fields.map((f) => f.param));
    return new SubmissionRefused(
      400,
      formErrors(err, (param) => FIELD_OF[param] ?? (ext.has(param) ? `ext-${param}` : undefined), FORM_ID),
    );
  }
}

/** Past an hourly limit: what to do, and when. */
function limitRefusal(err: SubmissionLimited): SubmissionRefused {
  const minutes = Math.max(1, Math.ceil(err.retryAfterSeconds / 60));
  const wait = `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const message =
    err.which === 'address'
      ? `You have sent as many events as one person may in an hour. Your event is kept below: send it again in ${wait}.`
      : `The calendar has taken as many events as it can in an hour. Your event is kept below: send it again in ${wait}.`;
  return refused(429, message, { 'retry-after': String(err.retryAfterSeconds) });
}
