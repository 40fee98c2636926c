// What a source's records may cost a run, and what their markup may be (sources.md §4,
// docs/security.md): shared by the sources' runs and the one-off import:tec.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Actor } from '../common/auth';
import { cleanTextField, type TextFields } from '../common/text/text-fields';
import { EVENT_TEXT } from '../events';
import { ORGANIZER_TEXT } from '../organizers';
import { TERM_TEXT } from '../taxonomies';
import { VENUE_TEXT } from '../venues';
import type { ImportKind } from './imported-record.entity';
import { ImportRecordError, ImportWriter } from './import-writer';

/**
 * A limit of the run was reached (its deadline, its events): the run stops where it is. Not a
 * record's failure: the importers let it through, and the run says it in its `errors`.
 */
export class RunLimitReached extends Error {
  override name = 'RunLimitReached';
}

/** The text fields of each kind a record may be, as their features declare them. */
export const TEXT_OF: Record<ImportKind, TextFields> = { event: EVENT_TEXT, venue: VENUE_TEXT, organizer: ORGANIZER_TEXT, category: TERM_TEXT, tag: TERM_TEXT };

/**
 * A record's write body with its text fields cleaned as the API cleans them for a role without
 * unfiltered HTML (auth.md §2), whoever writes it: markup from another site is another's input.
 * Text itself is kept (cleaning keeps characters and entities as written), so `"€10,50"` stays.
 * An event's nested venue and organizers (iCalendar's) are cleaned by their own rules.
 */
export function foreignInput(kind: ImportKind, input: Record<string, unknown>): Record<string, unknown> {
  const text = TEXT_OF[kind];
  const out: Record<string, unknown> = { ...input };
  for (const field of Object.keys(text.rules)) {
    const value = out[field];
    if (typeof value === 'string') out[field] = cleanTextField(text, field, value, false);
    else if (Array.isArray(value)) out[field] = value.map((v) => (typeof v === 'string' ? cleanTextField(text, field, v, false) : v));
  }
  if (kind === 'event') {
    if (isObject(out.venue)) out.venue = foreignInput('venue', out.venue);
    if (Array.isArray(out.organizer)) out.organizer = out.organizer.map((o) => (isObject(o) ? foreignInput('organizer', o) : o));
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface RecordLimits {
  /** The most events the run writes; the next one stops the run. */
  maxEvents: number;
  /** The most categories and tags together of one event; more fails that event. */
  maxTerms: number;
  /** Ends the run before its next write. */
  deadline: AbortSignal;
  /** Setting names, for the refusals. */
  settings: { events: string; terms: string };
}

/**
 * The writer a source's run writes through: ImportWriter itself, each write after a turn of the
 * event loop (a run must share the process: on SQLite a write holds it while it runs, so the
 * API's requests are answered between two records), its input cleaned as foreign (foreignInput)
 * and checked against the run's limits.
 */
export function boundedWriter(writer: ImportWriter, limits: RecordLimits): ImportWriter {
  let events = 0;
  const bounded = Object.create(writer) as ImportWriter;
  bounded.put = async (actor: Actor, target, input, opts) => {
    await nextTurn();
    if (limits.deadline.aborted) throw new RunLimitReached(reasonOf(limits.deadline));
    if (target.kind === 'event') {
      const terms = count(input.categories) + count(input.tags);
      if (terms > limits.maxTerms)
        throw new ImportRecordError(
          `it has ${terms} categories and tags, more than the ${limits.maxTerms} a source's event may have (${limits.settings.terms})`,
        );
      if (++events > limits.maxEvents)
        throw new RunLimitReached(`the run stopped at ${limits.maxEvents} events, the most a run writes (${limits.settings.events}); the rest was not written`);
    }
    return writer.put(actor, target, foreignInput(target.kind, input), opts);
  };
  return bounded;
}

/** The message of an aborted signal's reason. */
export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}

function count(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}
