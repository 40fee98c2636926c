import { Injectable } from '@nestjs/common';
import { can } from '../common/auth';
import { type EventFormContext, type EventFormField, EventFormHooks, type EventFormQuestion } from './event-form-hooks';
import { EventFormPickers } from './event-form-pickers';
import { EVENT_FLAGS, type EventFormValues, NEW_ORGANIZER_FIELDS, NEW_VENUE_FIELDS, tagNames } from './event-form-values';
import { EventFormService, type OpenedEvent } from './event-form.service';
import { type FieldError, messageOf } from './form-errors';
import type { EditorSession } from './manage-session';
import { ReviewQueue } from './review-queue';

type Json = Record<string, unknown>;

/** What the controller hands over to show the form. */
export interface EventFormView {
  editor: EditorSession;
  values: EventFormValues;
  opened: OpenedEvent | null;
  /** The version the form carries (the ETag it was opened at, or the newer one after a conflict). */
  version?: string;
  errors?: FieldError[];
  notice?: string;
  /** After a save over a newer version: the stored values, shown beside the editor's. */
  conflictWith?: EventFormValues;
  /** The form as posted, when it comes back (for the form hooks' sections). */
  posted?: Json;
  /** The refused write's messages by write parameter (for the form hooks' sections). */
  paramErrors?: Record<string, string>;
  /** Questions that ask first (`confirm`), asked now because their button was pressed without an answer. */
  asked?: EventFormQuestion[];
  /** Opened from the review queue ("Edit, then approve"): "Publish" approves the event and goes back to the queue. */
  reviewing?: boolean;
}

const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  pending: 'Pending review',
  publish: 'Published',
  future: 'Scheduled',
  private: 'Private',
};

/** The fields a conflict compares, with their labels, as text. */
const COMPARED: [string, (v: EventFormValues) => string][] = [
  ['Title', (v) => v.title],
  ['Description', (v) => v.description],
  ['Excerpt', (v) => v.excerpt],
  ['Start', (v) => (v.all_day ? v.start_date : `${v.start_date} ${v.start_time}`)],
  ['End', (v) => (v.all_day ? v.end_date : `${v.end_date} ${v.end_time}`)],
  ['All day', (v) => (v.all_day ? 'yes' : 'no')],
  ['Time zone', (v) => v.timezone],
  ['Venue', (v) => (v.venue === 'new' ? `new: ${v.new_venue.venue ?? ''}` : v.venue)],
  ['Organizers', (v) => v.organizers.join(', ')],
  ['Categories', (v) => [...v.categories].sort().join(', ')],
  ['Tags', (v) => tagNames(v.tags).join('\n')],
  ['Cost', (v) => v.cost],
  ['Website', (v) => v.website],
  ['Image URL', (v) => v.image],
  ['Status', (v) => v.status],
  ...EVENT_FLAGS.map(([name, label]) => [label, (v: EventFormValues) => (v.flags[name] ? 'yes' : 'no')] as [string, (v: EventFormValues) => string]),
];

/**
 * The event form's view model: the values with their messages, the pickers' chosen items and
 * search pages, the categories' tree, the zones, the statuses and buttons the editor's role
 * allows (auth.md §2), the form hooks' fields, sections and questions, and after a conflict the
 * fields where the stored event and the editor's differ.
 */
@Injectable()
export class EventFormViews {
  constructor(
    private readonly forms: EventFormService,
    private readonly pickers: EventFormPickers,
    private readonly hooks: EventFormHooks,
    private readonly reviews: ReviewQueue,
  ) {}

  async build(view: EventFormView): Promise<Json> {
    const { editor, values, opened } = view;
    const actor = editor.actor;
    const errors = view.errors ?? [];
    const ctx: EventFormContext = { actor, event: opened?.body ?? null, posted: view.posted ?? null, errors: view.paramErrors ?? {} };
    const [venues, organizers, chosen, categories, sections, declined] = await Promise.all([
      this.pickers.searchVenues(actor, values.venue_search, values.venue_page),
      this.pickers.searchOrganizers(actor, values.organizer_search, values.organizer_page),
      this.pickers.chosen(actor, values.venue, values.organizers),
      this.pickers.categoryTree(actor),
      this.hooks.sections(ctx),
      // A declined submission's reason is shown on its form (editing.md §8), to whoever may open it.
      opened ? this.reviews.declineOf(opened.entity.id) : null,
    ]);
    const publisher = can(actor, 'publish_items');
    const status = opened?.entity.status ?? '';
    const trashed = status === 'trash';
    const unpublished = opened === null || status === 'draft' || status === 'pending';
    const statuses = (publisher ? ['draft', 'pending', 'publish', 'private'] : ['draft', 'pending']).concat(status === 'future' ? ['future'] : []);
    return {
      id: opened?.entity.id ?? null,
      isNew: opened === null,
      trashed,
      publicUrl: opened && !trashed ? opened.body.url : null,
      notice: view.notice,
      declined,
      reviewing: view.reviewing === true && status === 'pending' && publisher,
      version: view.version ?? opened?.version ?? '',
      values: { ...values, status: values.status || (opened ? status : 'draft') },
      errors,
      err: (field: string) => messageOf(errors, field),
      zones: this.forms.zones(values.timezone),
      statuses: statuses.map((value) => ({ value, label: STATUS_LABELS[value] })),
      buttons: {
        // A contributor never publishes: the primary button asks for a review (auth.md §2).
        primary: trashed || !unpublished ? null : publisher ? 'Publish' : status === 'pending' ? null : 'Submit for review',
        primaryAction: publisher ? 'publish' : 'submit',
        trash: opened !== null && !trashed && opened.mayDelete,
        restore: trashed,
      },
      venuePicker: { chosen: chosen.venue, ...venues, newFields: NEW_VENUE_FIELDS },
      organizerPicker: { chosen: chosen.organizers, ...organizers, newFields: NEW_ORGANIZER_FIELDS },
      categories: categories.map((c) => ({ ...c, checked: values.categories.includes(c.id) })),
      flags: EVENT_FLAGS.map(([name, label]) => ({ name, label, checked: values.flags[name] })),
      extFields: extFieldViews(this.hooks.fields(), values, errors),
      sections,
      questions: [...this.questions(ctx, opened !== null).filter((q) => !q.confirm), ...(view.asked ?? [])].map((q) => ({
        ...q,
        value: values.answers[q.name] ?? q.initial,
        error: view.asked?.includes(q) ? messageOf(errors, `answer-${q.name}-${q.choices[0]?.value ?? ''}`) : undefined,
      })),
      conflict: view.conflictWith ? differences(view.conflictWith, values) : null,
    };
  }

  /** The questions asked before a save and, on an existing event, before a trash: one set of radio buttons per name. */
  private questions(ctx: EventFormContext, existing: boolean) {
    const all = [...this.hooks.questions('save', ctx), ...(existing ? this.hooks.questions('trash', ctx) : [])];
    return all.filter((q, i) => all.findIndex((other) => other.name === q.name) === i);
  }
}

/** Whether the editor's values differ from the stored event's in any field the form writes (the conflict's fields, and the publish date). */
/** The extensions' fields as the event form and the submission form render them: each with its value as posted or stored, and its message. */
export function extFieldViews(fields: readonly EventFormField[], values: EventFormValues, errors: readonly FieldError[]) {
  return fields.map((f) => ({
    id: `ext-${f.param}`,
    name: `ext[${f.param}]`,
    label: f.label,
    kind: f.kind,
    help: f.help,
    options: f.choices ?? [],
    value: values.ext[f.param] ?? '',
    error: messageOf(errors, `ext-${f.param}`),
  }));
}

export function formChanged(stored: EventFormValues, mine: EventFormValues): boolean {
  return differences(stored, mine).length > 0 || (mine.publish_date !== '' && mine.publish_date !== stored.publish_date);
}

/** The fields where the stored version and the editor's differ: label, stored text, the editor's text. */
function differences(stored: EventFormValues, mine: EventFormValues): { label: string; stored: string; mine: string }[] {
  const rows = COMPARED.map(([label, read]) => ({ label, stored: read(stored), mine: read(mine) }));
  for (const param of Object.keys(stored.ext)) rows.push({ label: param, stored: stored.ext[param] ?? '', mine: mine.ext[param] ?? '' });
  return rows.filter((r) => r.stored.trim() !== r.mine.trim());
}
