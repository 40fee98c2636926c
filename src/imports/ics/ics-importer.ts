import type { Actor } from '../../common/auth';
import { ImportedRecordsRepository } from '../imported-records.repository';
import { ImportReport, ReportStream } from '../import-report';
import { ImportRecordError, ImportResult, ImportSession, ImportWriter } from '../import-writer';
import { calendarEntries, derivedUid, Entry, EventInput, isOlderVersion, parseCalendar, ParsedCalendar, sourceKey } from './ics-calendar';
import { Window } from './ics-recurrence';
import type { IcsSeriesHooks } from '../ics-series-hooks';
import { readCalendarSource } from './ics-source';

// `import:ics` (ical.md, Import): reads the calendar (ics-source.ts), turns it into API-shaped
// events (ics-calendar.ts), and writes each through the import scaffold's ImportWriter — the
// routes' validation and services — remembering each under its UID (+ occurrence) so that a
// second run updates what changed and creates nothing twice.

/** The mapping table's source for every iCalendar import: UIDs are unique across calendars (RFC 5545 §3.8.4.7). */
export const ICS_SOURCE = 'ics';

export interface IcsImportOptions {
  /** A file path or an http(s)/webcal URL. */
  input: string;
  /** The calendar's text, read already (a source's run reads it itself); `input` then only names it. */
  text?: string;
  status: 'publish' | 'draft' | 'pending';
  /** --category names, added to every event. */
  categories: string[];
  /** --author LOGIN: the user the events are written as and by (default: the first administrator). */
  author?: string;
  dryRun: boolean;
  window: Window;
  /** The site's zone (CALENDAR_TIMEZONE). */
  siteZone: string;
  /** The run's part in each write (a source's run: sources.md §3–4). */
  session?: ImportSession;
}

export interface IcsImportResult {
  counts: Record<ImportResult | 'failed' | 'skipped', number>;
  /** Skipped events by reason. */
  skipped: Map<string, number>;
  /** The UIDs of the events the calendar has (written, unchanged or failed; not those skipped). */
  uids: Set<string>;
  /** Their keys (UID, or UID and occurrence): what a source's run holds (sources.md §2 `on_source_delete`). */
  keys: Set<string>;
}

/** One line: `created 3, updated 1, unchanged 7, skipped 2 (cancelled 1, no DTSTART 1), failed 0`. */
export function summaryLine(result: IcsImportResult, dryRun: boolean): string {
  const c = result.counts;
  const reasons = [...result.skipped].map(([reason, n]) => `${reason} ${n}`).join(', ');
  const verbs = dryRun ? ['would create', 'would update'] : ['created', 'updated'];
  return (
    `${dryRun ? 'import:ics (dry run, nothing written)' : 'import:ics'}: ${verbs[0]} ${c.created}, ${verbs[1]} ${c.updated}, ` +
    `unchanged ${c.unchanged}, skipped ${c.skipped}${reasons ? ` (${reasons})` : ''}, failed ${c.failed}`
  );
}

export class IcsImporter {
  constructor(
    private readonly writer: ImportWriter,
    private readonly records: ImportedRecordsRepository,
    private readonly out: ReportStream,
    /** With a series hook loaded (the recurrence extension on), recurring VEVENTs are kept as series. */
    private readonly series?: IcsSeriesHooks,
  ) {}

  /** Reads and writes; unusable input throws IcsInputError, an unknown --author ImportRecordError (both exit 2). */
  async run(opts: IcsImportOptions, given?: ImportReport): Promise<IcsImportResult> {
    const calendar = parseCalendar(opts.text ?? (await readCalendarSource(opts.input, (line) => this.out.write(`import:ics: ${line}\n`))));
    const actor = await this.writer.importingUser(opts.author);
    const keepSeries = this.series?.keepsSeries ?? false;
    const keptStarts = keepSeries ? await this.keptStarts(calendar) : undefined;
    const entries = calendarEntries(calendar, { window: opts.window, siteZone: opts.siteZone, categories: opts.categories, keepSeries, keptStarts });
    const report = given ?? new ImportReport(this.out, opts.dryRun);
    const result: IcsImportResult = {
      counts: { created: 0, updated: 0, unchanged: 0, kept_local: 0, skipped: 0, failed: 0 },
      skipped: new Map(),
      uids: new Set(),
      keys: new Set(),
    };
    report.begin('event', entries.filter((e) => e.kind !== 'skipped').length);
    for (const entry of entries) {
      if (entry.kind === 'skipped') {
        result.counts.skipped += entry.count;
        result.skipped.set(entry.reason, (result.skipped.get(entry.reason) ?? 0) + entry.count);
        continue;
      }
      result.uids.add(entry.uid);
      if (entry.kind === 'event') result.keys.add(entry.key);
      const outcome = await this.write(actor, entry, opts, report);
      result.counts[outcome]++;
    }
    report.end();
    return result;
  }

  /** The start each recurring VEVENT's series has here, by UID, when an earlier import kept it (calendarEntries keeps it). */
  private async keptStarts(calendar: ParsedCalendar): Promise<Map<string, { wall: string; utc: string }>> {
    const starts = new Map<string, { wall: string; utc: string }>();
    for (const v of calendar.vevents) {
      if (v.hasProperty('recurrence-id') || !(v.hasProperty('rrule') || v.hasProperty('rdate'))) continue;
      const uid = String(v.getFirstPropertyValue('uid') ?? '').trim() || derivedUid(v);
      const record = await this.records.find(ICS_SOURCE, 'event', sourceKey(uid, null));
      const start = record && (await this.writer.eventStart(record.localId));
      if (start) starts.set(uid, start);
    }
    return starts;
  }

  private async write(
    actor: Actor,
    entry: Exclude<Entry, { kind: 'skipped' }>,
    opts: IcsImportOptions,
    report: ImportReport,
  ): Promise<ImportResult | 'failed' | 'skipped'> {
    const record = entry.kind === 'event' && entry.key !== entry.uid ? `${entry.uid} (${entry.key.slice(entry.uid.length + 1)})` : entry.uid;
    if (entry.kind === 'failed') {
      report.fail('event', record, entry.message);
      return 'failed';
    }
    try {
      const target = { source: ICS_SOURCE, kind: 'event' as const, key: entry.key, version: entry.version };
      const stored = await this.records.find(ICS_SOURCE, 'event', entry.key);
      if (stored && isOlderVersion(entry.version, stored.version)) {
        report.count('event', 'unchanged');
        return 'unchanged'; // the file holds an older copy than the one imported before
      }
      if (entry.occurrenceAt !== undefined && !opts.dryRun) await this.adoptOccurrence(entry.uid, entry.occurrenceAt, target, record);
      if (entry.firstOccurrence !== undefined && !opts.dryRun) await this.adoptFirstOccurrence(entry.uid, entry.firstOccurrence, target);
      const body = { ...this.body(entry.input, opts), categories: await this.categoryItems(entry.input.categories, record) };
      const outcome = await this.writer.put(actor, target, body, { dryRun: opts.dryRun, session: opts.session });
      if (entry.firstOccurrence !== undefined && !opts.dryRun) await this.keyOccurrences(actor, entry.uid, outcome.localId, entry.input.all_day);
      report.count('event', outcome.result);
      return outcome.result;
    } catch (err) {
      if (!(err instanceof ImportRecordError)) throw err;
      report.fail('event', record, err.message);
      return 'failed';
    }
  }

  /**
   * An overridden occurrence of a kept series updates the event that stands for it: the
   * record is mapped to that event before it is written (once; later runs find the mapping).
   */
  private async adoptOccurrence(uid: string, utcStart: string, target: { source: string; kind: 'event'; key: string }, record: string): Promise<void> {
    const series = await this.records.find(ICS_SOURCE, 'event', sourceKey(uid, null));
    const occurrence = series && (await this.series!.occurrenceAt(series.localId, utcStart));
    if (!occurrence) throw new ImportRecordError(`event ${record}: no occurrence of its series starts at ${utcStart} UTC`);
    if ((await this.records.find(ICS_SOURCE, 'event', target.key))?.localId !== occurrence) await this.writer.adopt(target, occurrence);
  }

  /**
   * A series imported with the module on where an import with it off left one event per occurrence:
   * the event of the series' first occurrence becomes the series (the write gives it `recurrence`),
   * so it keeps its id. Only when the series itself was never imported (or its event is gone).
   */
  private async adoptFirstOccurrence(uid: string, firstOccurrence: string, target: { source: string; kind: 'event'; key: string }): Promise<void> {
    const series = await this.records.find(ICS_SOURCE, 'event', target.key);
    if (series && (await this.writer.eventStart(series.localId))) return;
    const first = await this.records.find(ICS_SOURCE, 'event', sourceKey(uid, firstOccurrence));
    if (first && (await this.writer.eventStart(first.localId))) await this.writer.adopt(target, first.localId);
  }

  /**
   * Each occurrence of a kept series is remembered under the key the expanding import gives
   * it (UID and original start), so that an import with the module off updates the
   * occurrences instead of adding an event per occurrence. An event an earlier import (module off)
   * made for it is replaced by the series' occurrence: it goes to the trash and its key now
   * names the occurrence. Occurrences the horizon added since are keyed at the next run.
   */
  private async keyOccurrences(actor: Actor, uid: string, seriesId: number, allDay: boolean): Promise<void> {
    const occurrences = await this.series!.keyedOccurrences(seriesId);
    const own = new Set(occurrences.map((o) => o.eventId));
    const keyOf = (o: (typeof occurrences)[number]) =>
      sourceKey(uid, allDay ? o.originalStart.slice(0, 10).replace(/-/g, '') : `${o.utcOriginalStart.replace(/[-:]/g, '').replace(' ', 'T')}Z`);
    const records = await this.records.findMany(ICS_SOURCE, 'event', occurrences.map(keyOf));
    for (const o of occurrences) {
      const target = { source: ICS_SOURCE, kind: 'event' as const, key: keyOf(o) };
      const known = records.get(target.key);
      if (known?.localId === o.eventId) continue;
      if (known && !own.has(known.localId)) await this.writer.trashEvent(actor, known.localId);
      await this.writer.adopt(target, o.eventId);
    }
  }

  /**
   * The event's create/update body, its venue, organizer and categories nested as an API write
   * gives them: the event writer creates (or reuses, endpoints.md §5.2) them inside the event's
   * own transaction, so an event the service refuses leaves none of them behind (one record, one unit of work). Linked items are published, as the event may be.
   */
  private body(input: EventInput, opts: IcsImportOptions): Record<string, unknown> {
    const { venue, organizer, categories: _categories, ...fields } = input;
    return {
      ...fields,
      status: opts.status,
      venue: venue ? { ...venue, status: 'publish' } : '',
      organizer: organizer ? [{ ...organizer, status: 'publish' }] : [],
    };
  }

  /**
   * The event write's `categories`: names, which the write matches (slug or name) or creates in
   * its own transaction. An event write reads a name of digits only as an id (endpoints.md §4.5),
   * so such a name is looked up here, read only, as before (slug, id, name); one that names no
   * category cannot be created with the event and is left out, said on stderr.
   */
  private async categoryItems(names: string[], record: string): Promise<(string | number)[]> {
    const items: (string | number)[] = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) {
        items.push(name);
        continue;
      }
      const id = await this.writer.findTerm('category', name);
      if (id !== null) items.push(id);
      else this.out.write(`import:ics: event ${record}: category "${name}" left out: a name of digits only is read as an id; create that category first\n`);
    }
    return items;
  }
}
