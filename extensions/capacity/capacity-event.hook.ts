import { Injectable } from '@nestjs/common';
import { EVENT_FORM_HOOKS, EVENT_HOOKS, EVENT_PAGE_HOOKS, Hook, ICAL_HOOKS, INVALID, stripTags } from '../../src/extend';
import type {
  EventDeleteContext,
  EventEntity,
  EventFormField,
  EventFormHook,
  EventHook,
  EventWriteContext,
  IcalHook,
  IcalPlan,
  IcalProperty,
  PageHook,
  RecordExtras,
  Tx,
} from '../../src/extend';
import { CAPACITY_MESSAGE, MAX_CAPACITY, readCapacityInput } from './capacity-param';
import { CapacityRepository } from './capacity.repository';

type Json = Record<string, unknown>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * The `capacity` field of events, one class declaring the hooks of four features: of events
 * (checked before the write, kept in the module's table inside the write's unit of work, so the
 * write records the event in the change log and every cache is emptied; removed with the event
 * when it is deleted for good; shown as `capacity`, null when unset, and as schema.org's
 * `maximumAttendeeCapacity`), of the event page, of iCalendar answers (`X-CAPACITY`) and of the
 * editing form. A hook of a feature switched off (the pages, the editing pages) is not asked.
 */
@Hook(EVENT_HOOKS, EVENT_PAGE_HOOKS, ICAL_HOOKS, EVENT_FORM_HOOKS)
@Injectable()
export class CapacityEventHook implements EventHook, PageHook, IcalHook, EventFormHook {
  readonly name = 'capacity';
  readonly params = ['capacity'] as const;
  /** The field in the editing pages' event form and the submission form; `check` below validates it there too. */
  readonly formFields: readonly EventFormField[] = [
    {
      param: 'capacity',
      label: 'Capacity',
      kind: 'number',
      help: `How many people the event takes, up to ${MAX_CAPACITY}; empty: not set.`,
      onSubmissionForm: true,
    },
  ];

  constructor(private readonly repository: CapacityRepository) {}

  check(input: Json): Record<string, string> {
    return readCapacityInput(input) === INVALID ? { capacity: CAPACITY_MESSAGE } : {};
  }

  async saved(tx: Tx, event: EventEntity, ctx: EventWriteContext): Promise<void> {
    const capacity = readCapacityInput(ctx.input);
    // Checked already; a write without the parameter leaves the capacity as it is.
    if (capacity === undefined || capacity === INVALID) return;
    await this.repository.set(tx, event.id, capacity);
  }

  /** The trash keeps the capacity (a restored event has it again); a delete for good takes it away. */
  async deleting(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    if (ctx.force) await this.repository.remove(tx, event.id);
  }

  async present(events: readonly EventEntity[]): Promise<Map<number, RecordExtras>> {
    const capacities = await this.repository.capacities(events.map((e) => e.id));
    return new Map(
      events.map((e) => {
        const capacity = capacities.get(e.id) ?? null;
        return [e.id, { fields: { capacity }, ...(capacity !== null && { jsonLd: { maximumAttendeeCapacity: capacity } }) }];
      }),
    );
  }

  /**
   * "{title} takes up to N people.": the representation's title is HTML, so it is made plain
   * text (tags removed, entities decoded, as the page does with it) and escaped again here.
   */
  pageFragment(event: Json): string | null {
    if (typeof event.capacity !== 'number') return null;
    const title = typeof event.title === 'string' ? stripTags(event.title) : '';
    return `<p class="capacity">${escapeHtml(`${title} takes up to ${event.capacity} people.`)}</p>`;
  }

  async icalPlan(events: readonly EventEntity[]): Promise<IcalPlan> {
    const capacities = await this.repository.capacities(events.map((e) => e.id));
    const properties = new Map<number, IcalProperty[]>();
    for (const [id, capacity] of capacities) properties.set(id, [{ name: 'X-CAPACITY', value: String(capacity) }]);
    return { properties };
  }
}
