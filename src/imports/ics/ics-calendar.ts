import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { formatSql, wallToUtc } from '../../common/datetime/format';
import { YearSpan } from '../../common/ical/vtimezone';
import { ianaFromTzid, TzidResolver } from './ics-zones';
import { endOf, eventTimes, EventTimes, IcsTimeError, Moment, momentKey, momentMillis, TimeReader } from './ics-times';
import { EventFields, eventFields } from './ics-mapping';
import { exdateKey, expandSeries, MAX_OCCURRENCES, ruleStarts, SeriesRules, Window } from './ics-recurrence';

// An iCalendar text as the list of events to write (ical.md, Import): one entry per VEVENT, or
// per occurrence of a recurring one inside the import window, each with the key it is remembered
// by (UID, and for an occurrence its RECURRENCE-ID in UTC form) and a version that changes when
// the event does. Nothing here writes: ics-importer.ts does.

/** Unusable input: not iCalendar, or no VCALENDAR (exit code 2). */
export class IcsInputError extends Error {}

export interface ParsedCalendar {
  vevents: ICAL.Component[];
  vtimezones: Map<string, ICAL.Component>;
  /** X-WR-TIMEZONE (Google, Apple): the zone of floating times, when it is a known zone. */
  calendarZone: string | null;
  /** VEVENTs ical.js cannot read, each refused alone (the rest of the file is imported). */
  unreadable: UnreadableEvent[];
}

/** A VEVENT that cannot be read: who it is and the first line that stops it. */
export interface UnreadableEvent {
  /** Its UID, or `(no UID)`. */
  uid: string;
  summary: string;
  /** 1-based, in the file as given (folded lines count each). */
  line: number;
  text: string;
  message: string;
}

/** One unfolded content line and the file line it starts on. */
interface ContentLine {
  text: string;
  line: number;
}

/**
 * Parses a calendar with ical.js; unusable text throws IcsInputError with one clear line. The
 * whitespace some exporters put inside RRULE values (Exchange: `BYDAY=MO, TU`) is removed first;
 * when ical.js still cannot read the file, each VEVENT is read on its own and the ones it cannot
 * read are returned as `unreadable`: only the calendar around them is required.
 */
export function parseCalendar(textIn: string): ParsedCalendar {
  const text = textIn.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new IcsInputError('not an iCalendar file (it does not start with BEGIN:VCALENDAR)');
  const lines = contentLines(text).map(lenientRule).map(bareDates);
  try {
    return calendarOf(parseText(lines), []);
  } catch (err) {
    if (!(err instanceof IcsInputError)) throw err;
    const { frame, blocks } = splitEvents(lines);
    if (blocks.length === 0) throw err;
    const root = parseText(frame);
    const unreadable: UnreadableEvent[] = [];
    for (const block of blocks) {
      try {
        root.addSubcomponent(new ICAL.Component(ICAL.parse(block.map((l) => l.text).join('\r\n')) as unknown[]));
      } catch (blockErr) {
        unreadable.push(unreadableEvent(block, blockErr));
      }
    }
    return calendarOf(root, unreadable);
  }
}

/** The VCALENDAR of these lines, or IcsInputError. */
function parseText(lines: ContentLine[]): ICAL.Component {
  let jcal: unknown;
  try {
    jcal = ICAL.parse(lines.map((l) => l.text).join('\r\n'));
  } catch (err) {
    throw new IcsInputError(`not a valid iCalendar file: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Several calendars in one file come back as a list: the first is read (one calendar per file is the norm).
  const first = Array.isArray(jcal) && Array.isArray(jcal[0]) ? jcal[0] : jcal;
  const root = new ICAL.Component(first as unknown[]);
  if (root.name !== 'vcalendar') throw new IcsInputError('no VCALENDAR in the file');
  return root;
}

function calendarOf(root: ICAL.Component, unreadable: UnreadableEvent[]): ParsedCalendar {
  const vtimezones = new Map<string, ICAL.Component>();
  for (const tz of root.getAllSubcomponents('vtimezone')) {
    const tzid = tz.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string') vtimezones.set(tzid, tz);
  }
  const wr = root.getFirstPropertyValue('x-wr-timezone');
  return {
    vevents: root.getAllSubcomponents('vevent'),
    vtimezones,
    calendarZone: typeof wr === 'string' ? ianaFromTzid(wr) : null,
    unreadable,
  };
}

/** Content lines unfolded (RFC 5545 §3.1: a line end followed by a space or tab continues the line). */
function contentLines(text: string): ContentLine[] {
  const out: ContentLine[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (/^[ \t]/.test(raw) && out.length > 0) out[out.length - 1].text += raw.slice(1);
    else if (raw !== '') out.push({ text: raw, line: i + 1 });
  });
  return out;
}

/** RRULE/EXRULE values hold no meaningful whitespace: `FREQ=WEEKLY; BYDAY=MO, TU` is read as written without it. */
function lenientRule(l: ContentLine): ContentLine {
  const rule = /^((?:RRULE|EXRULE)(?:;[^:]*)?:)(.*)$/i.exec(l.text);
  return rule ? { ...l, text: rule[1] + rule[2].replace(/\s+/g, '') } : l;
}

/**
 * A date-valued property written without `VALUE=DATE` (`EXDATE:20200116`, as some exporters
 * write it on a timed series) is read as the date it is: ical.js would read it as a broken
 * DATE-TIME and stop the whole import. On a timed series such an EXDATE removes that day's
 * occurrence (ics-recurrence.ts), as a `VALUE=DATE` one does.
 */
function bareDates(l: ContentLine): ContentLine {
  const m = /^((?:DTSTART|DTEND|DUE|EXDATE|RDATE|RECURRENCE-ID)(?:;[^:]*)?):(.*)$/i.exec(l.text);
  if (!m || /;VALUE=/i.test(m[1]) || !/^\s*\d{8}\s*(,\s*\d{8}\s*)*$/.test(m[2])) return l;
  return { ...l, text: `${m[1]};VALUE=DATE:${m[2].replace(/\s+/g, '')}` };
}

/** The lines outside top-level VEVENTs (the calendar, its zones), and each VEVENT's lines. */
function splitEvents(lines: ContentLine[]): { frame: ContentLine[]; blocks: ContentLine[][] } {
  const frame: ContentLine[] = [];
  const blocks: ContentLine[][] = [];
  let block: ContentLine[] | null = null;
  let depth = 0;
  for (const l of lines) {
    if (!block && /^BEGIN:VEVENT\s*$/i.test(l.text)) block = [];
    if (!block) {
      frame.push(l);
      continue;
    }
    block.push(l);
    if (/^BEGIN:/i.test(l.text)) depth++;
    if (/^END:/i.test(l.text) && --depth === 0) {
      blocks.push(block);
      block = null;
    }
  }
  if (block) blocks.push(block); // a VEVENT the file never ends: refused on its own
  return { frame, blocks };
}

/** Who a VEVENT ical.js refused is, and the first of its lines ical.js cannot read (else its first line). */
function unreadableEvent(block: ContentLine[], err: unknown): UnreadableEvent {
  const value = (name: string) =>
    block
      .find((l) => new RegExp(`^${name}[;:]`, 'i').test(l.text))
      ?.text.replace(/^[^:]*:/, '')
      .trim() ?? '';
  let bad = block[0];
  let message = err instanceof Error ? err.message : String(err);
  for (const l of block) {
    if (/^(BEGIN|END):/i.test(l.text)) continue;
    try {
      ICAL.parse.property(l.text);
    } catch (lineErr) {
      bad = l;
      message = lineErr instanceof Error ? lineErr.message : String(lineErr);
      break;
    }
  }
  const text = bad.text.length > 80 ? `${bad.text.slice(0, 77)}...` : bad.text;
  return { uid: value('UID') || '(no UID)', summary: value('SUMMARY'), line: bad.line, text, message };
}

export interface EntryOptions {
  window: Window;
  /** The site's zone (floating times when the calendar names none, and all-day events). */
  siteZone: string;
  /** --category names, added to every event. */
  categories: string[];
  /** Occurrences per series at most. */
  cap?: number;
  /**
   * A hook keeps series (IcsSeriesHooks): a recurring VEVENT becomes one event with the
   * `recurrence` write field, and each overridden occurrence an update of the event that stands for it.
   */
  keepSeries?: boolean;
  /**
   * Kept series imported before, by UID: the start their series has here (UTC and wall time,
   * `YYYY-MM-DD HH:MM:SS`), which a re-import keeps rather than moving the series' start on.
   */
  keptStarts?: ReadonlyMap<string, { utc: string; wall: string }>;
}

/** The API-shaped input of one event (the writer adds status and author). */
export type EventInput = EventFields & EventTimes & { recurrence?: string[]; scope?: 'all' | 'this' };

export type Entry =
  /**
   * `occurrenceAt`: an overridden occurrence of a kept series, by its original start (UTC `YYYY-MM-DD HH:MM:SS`).
   * `firstOccurrence`: of a kept series, the occurrence key (as in `UID|…`) of its start.
   */
  | { kind: 'event'; uid: string; key: string; version: string; input: EventInput; occurrenceAt?: string; firstOccurrence?: string }
  | { kind: 'skipped'; uid: string; reason: string; count: number }
  | { kind: 'failed'; uid: string; message: string };

/** Skip reasons, as the summary prints them. */
export const SKIP = {
  noStart: 'no DTSTART',
  outside: 'outside --from/--to',
  cancelled: 'cancelled',
  overCap: `past ${MAX_OCCURRENCES} occurrences of a series`,
  tooDense: 'recurrence too dense to expand',
} as const;

/** The mapping table's source_key is 191 characters at most: a longer one is replaced by its digest. */
const MAX_KEY = 191;
export function sourceKey(uid: string, occurrence: string | null): string {
  const key = occurrence === null ? uid : `${uid}|${occurrence}`;
  return key.length <= MAX_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * The version remembered with an import: SEQUENCE, LAST-MODIFIED and a digest of the fields
 * written (so a file changed without LAST-MODIFIED still updates). At most 64 characters.
 */
export function versionOf(sequence: number, lastModified: string | null, input: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 24);
  return `s${sequence};m${lastModified ?? ''};d${digest}`;
}

/** Whether the version in the file is older than the one imported before (then it is not written). */
export function isOlderVersion(file: string, stored: string | null): boolean {
  const read = (v: string) => /^s(\d+);m([0-9TZ]*);/.exec(v);
  const a = read(file);
  const b = stored === null ? null : read(stored);
  if (!a || !b) return false;
  const [seqA, seqB] = [Number(a[1]), Number(b[1])];
  if (seqA !== seqB) return seqA < seqB;
  return a[2] !== '' && b[2] !== '' && a[2] < b[2];
}

/**
 * An RRULE that ical.js can expand: it refuses some rules only when asked to expand them (RFC
 * 5545's "must not" combinations, such as BYMONTHDAY in a WEEKLY rule), so an iterator is set up
 * here, where a refusal is this event's alone (IcsTimeError: the series is reported as failed,
 * naming the line) instead of ending the whole import.
 */
function readableRule(prop: ICAL.Property): ICAL.Recur {
  const rule = prop.getFirstValue() as ICAL.Recur;
  try {
    rule.iterator(ICAL.Time.fromData({ year: 2000, month: 1, day: 1 }));
  } catch (err) {
    throw new IcsTimeError(`${prop.toICALString()}: ${(err as Error).message}`);
  }
  return rule;
}

/** Everything the calendar asks to import, in file order (a series' occurrences in time order). */
export function calendarEntries(cal: ParsedCalendar, opts: EntryOptions): Entry[] {
  const reader = new TimeReader(new TzidResolver(cal.vtimezones, yearsOf(cal, opts.window)), cal.calendarZone ?? opts.siteZone);
  const dayZone = cal.calendarZone ?? opts.siteZone;
  const entries: Entry[] = cal.unreadable.map((u) => ({
    kind: 'failed' as const,
    uid: u.summary === '' ? u.uid : `${u.uid} ("${u.summary}")`,
    message: `line ${u.line} (${u.text}): ${u.message}`,
  }));
  // A UID's master (no RECURRENCE-ID) and its overridden occurrences (by RECURRENCE-ID as written);
  // of two copies of one, the newer (RFC 5545 §3.8.7.4: SEQUENCE, then LAST-MODIFIED, DTSTAMP).
  const groups = new Map<string, { master?: ICAL.Component; overrides: Map<string, ICAL.Component> }>();
  for (const v of cal.vevents) {
    const uid = String(v.getFirstPropertyValue('uid') ?? '').trim() || derivedUid(v);
    const group = groups.get(uid) ?? { overrides: new Map<string, ICAL.Component>() };
    const rid = v.getFirstProperty('recurrence-id');
    if (rid) {
      const key = `${tzidOf(rid) ?? ''}|${String(rid.getFirstValue())}`;
      const known = group.overrides.get(key);
      if (!known || !isNewer(known, v)) group.overrides.set(key, v);
    } else if (!group.master || !isNewer(group.master, v)) group.master = v;
    groups.set(uid, group);
  }
  for (const [uid, group] of groups) {
    try {
      entries.push(...groupEntries(uid, group.master, [...group.overrides.values()], reader, dayZone, opts));
    } catch (err) {
      if (!(err instanceof IcsTimeError)) throw err;
      const summary = String((group.master ?? [...group.overrides.values()][0])?.getFirstPropertyValue('summary') ?? '').trim();
      entries.push({ kind: 'failed', uid: summary === '' ? uid : `${uid} ("${summary}")`, message: err.message });
    }
  }
  return entries;
}

/** Whether copy `a` of a VEVENT is newer than copy `b`: higher SEQUENCE, then later LAST-MODIFIED, then later DTSTAMP (a tie: neither). */
export function isNewer(a: ICAL.Component, b: ICAL.Component): boolean {
  const seq = (v: ICAL.Component) => {
    const n = Number(v.getFirstPropertyValue('sequence') ?? 0);
    return Number.isFinite(n) ? n : 0;
  };
  const at = (v: ICAL.Component, name: string) => {
    const t = v.getFirstPropertyValue(name);
    return t instanceof ICAL.Time ? t.toUnixTime() : -Infinity;
  };
  if (seq(a) !== seq(b)) return seq(a) > seq(b);
  if (at(a, 'last-modified') !== at(b, 'last-modified')) return at(a, 'last-modified') > at(b, 'last-modified');
  return at(a, 'dtstamp') > at(b, 'dtstamp');
}

/**
 * The UID of a VEVENT that has none (RFC 5545 requires one; some exporters leave it out): a
 * digest of DTSTART (as written, with its TZID), SUMMARY and LOCATION, as calendar apps derive
 * one, so that the same event in the same file is the same record on every import.
 */
export function derivedUid(v: ICAL.Component): string {
  const start = v.getFirstProperty('dtstart')?.toICALString() ?? '';
  const text = (name: string) => String(v.getFirstPropertyValue(name) ?? '').trim();
  const digest = createHash('sha256')
    .update(JSON.stringify([start, text('summary'), text('location')]))
    .digest('hex');
  return `derived-${digest.slice(0, 40)}`;
}

/** The years whose offsets a VTIMEZONE must share with an IANA zone: those of the events and the window (30 at most). */
function yearsOf(cal: ParsedCalendar, window: Window): YearSpan {
  const years = [DateTime.fromMillis(window.fromMs, { zone: 'utc' }).year, DateTime.fromMillis(window.toMs, { zone: 'utc' }).year];
  for (const v of cal.vevents) {
    const start = v.getFirstPropertyValue('dtstart');
    if (start instanceof ICAL.Time) years.push(start.year);
  }
  const to = Math.max(...years);
  return { from: Math.max(Math.min(...years), to - 29), to };
}

interface Timing {
  start: Moment;
  end: Moment;
}

function timingOf(v: ICAL.Component, reader: TimeReader): Timing | null {
  const startProp = v.getFirstProperty('dtstart');
  const startValue = startProp?.getFirstValue();
  if (!startProp || !(startValue instanceof ICAL.Time)) return null;
  const start = reader.moment(startValue, tzidOf(startProp));
  const endProp = v.getFirstProperty('dtend') ?? v.getFirstProperty('due');
  const endValue = endProp?.getFirstValue();
  const end = endProp && endValue instanceof ICAL.Time ? reader.moment(endValue, tzidOf(endProp)) : null;
  const duration = v.getFirstPropertyValue('duration');
  return { start, end: endOf(start, end, duration instanceof ICAL.Duration ? duration : null) };
}

const tzidOf = (prop: ICAL.Property): string | null => {
  const tzid = prop.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
};

/** Every value of a multi-valued date property (EXDATE, RDATE) as moments. */
function momentsOf(v: ICAL.Component, name: string, reader: TimeReader): Moment[] {
  const moments: Moment[] = [];
  for (const prop of v.getAllProperties(name)) {
    for (const value of prop.getValues()) {
      const time = value instanceof ICAL.Period ? value.start : value;
      if (time instanceof ICAL.Time) moments.push(reader.moment(time, tzidOf(prop)));
    }
  }
  return moments;
}

const isCancelled = (v: ICAL.Component) => String(v.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';

function groupEntries(
  uid: string,
  master: ICAL.Component | undefined,
  overrides: ICAL.Component[],
  reader: TimeReader,
  dayZone: string,
  opts: EntryOptions,
): Entry[] {
  const entry = (v: ICAL.Component, t: Timing, occurrence: string | null, extra: Pick<EventInput, 'recurrence' | 'scope'> = {}): Entry => {
    const fields = eventFields(v);
    const categories = [...fields.categories];
    for (const name of opts.categories) if (!categories.some((c) => c.toLowerCase() === name.toLowerCase())) categories.push(name);
    const input: EventInput = { ...fields, categories, ...eventTimes(t.start, t.end, dayZone), ...extra };
    const sequence = Number(v.getFirstPropertyValue('sequence') ?? 0);
    const modified = v.getFirstPropertyValue('last-modified');
    const lastModified = modified instanceof ICAL.Time ? modified.toString().replace(/[-:]/g, '') : null;
    return { kind: 'event', uid, key: sourceKey(uid, occurrence), version: versionOf(Number.isFinite(sequence) ? sequence : 0, lastModified, input), input };
  };
  const skipped = (reason: string, count = 1): Entry => ({ kind: 'skipped', uid, reason, count });

  const recurring = master !== undefined && (master.hasProperty('rrule') || master.hasProperty('rdate'));
  if (master && !recurring && overrides.length === 0) {
    const t = timingOf(master, reader);
    if (!t) return [skipped(SKIP.noStart)];
    return [isCancelled(master) ? skipped(SKIP.cancelled) : entry(master, t, null)];
  }
  if (master && isCancelled(master)) return [skipped(SKIP.cancelled)];
  if (opts.keepSeries && master && recurring && master.getAllProperties('rrule').length <= 1) {
    const t = timingOf(master, reader);
    if (!t) return [skipped(SKIP.noStart)];
    const cancelled = overrides.filter(isCancelled).map((v) => recurrenceIdOf(v, reader, t.start, dayZone));
    const plan = keptPlan(
      master,
      t,
      reader,
      opts,
      cancelled.filter((m): m is Moment => m !== null),
      opts.keptStarts?.get(uid),
    );
    // A series that cannot be kept with the same instants in the window is expanded, as with the module off.
    if (plan) return keptSeries(plan, master, overrides, reader, dayZone, { entry, skipped });
  }

  const entries: Entry[] = [];
  const inWindow = (t: Timing) => momentMillis(t.start) < opts.window.toMs && momentMillis(t.end) + dayLength(t.end) > opts.window.fromMs;
  // Overridden occurrences by the occurrence they replace.
  const replaced = new Map<string, { v: ICAL.Component; recurrenceId: Moment }>();
  const masterStart = master ? (timingOf(master, reader)?.start ?? null) : null;
  for (const v of overrides) {
    const recurrenceId = recurrenceIdOf(v, reader, masterStart, dayZone);
    if (recurrenceId) replaced.set(momentKey(recurrenceId), { v, recurrenceId });
  }

  let starts: Moment[] = [];
  if (master) {
    const t = timingOf(master, reader);
    if (!t) return [skipped(SKIP.noStart)];
    const lengthMs = momentMillis(t.end) + dayLength(t.end) - momentMillis(t.start);
    const expansion = expandSeries(
      {
        start: t.start,
        lengthMs,
        rrules: master.getAllProperties('rrule').map((p) => readableRule(p)),
        rdates: momentsOf(master, 'rdate', reader),
        exdates: momentsOf(master, 'exdate', reader),
        untilMs: (until) => untilMillis(until, t.start, reader),
      },
      opts.window,
      opts.cap ?? MAX_OCCURRENCES,
    );
    starts = expansion.starts;
    if (expansion.overCap > 0) entries.push(skipped(SKIP.overCap, expansion.overCap));
    if (expansion.truncated) entries.push(skipped(SKIP.tooDense));
    for (const start of starts) {
      const key = momentKey(start);
      if (replaced.has(key)) continue; // written from its override below
      entries.push(entry(master, { start, end: shifted(t, start) }, key));
    }
  }
  for (const [key, { v }] of replaced) {
    if (isCancelled(v)) {
      entries.push(skipped(SKIP.cancelled));
      continue;
    }
    const t = timingOf(v, reader);
    if (!t) {
      entries.push(skipped(SKIP.noStart));
      continue;
    }
    if (inWindow(t)) entries.push(entry(v, t, key));
  }
  // A series none of whose occurrences lies in the window is said so, once (a birthdays calendar
  // read for a month holds many), instead of vanishing from the summary.
  return entries.length === 0 ? [skipped(SKIP.outside)] : entries;
}

/**
 * The occurrence an override replaces (its RECURRENCE-ID), in the series' terms: Exchange writes
 * `RECURRENCE-ID;TZID=W. Europe Standard Time:20260226T000000` for an occurrence of an all-day
 * series, which means that day (the date as written in that zone); a date on a timed series
 * means the series' time that day. Null when the value is no time.
 */
function recurrenceIdOf(v: ICAL.Component, reader: TimeReader, start: Moment | null, dayZone: string): Moment | null {
  const prop = v.getFirstProperty('recurrence-id');
  const value = prop?.getFirstValue();
  if (!prop || !(value instanceof ICAL.Time)) return null;
  const m = reader.moment(value, tzidOf(prop));
  if (start?.kind === 'day' && m.kind === 'instant') {
    const wall = value.zone === ICAL.Timezone.utcTimezone ? m.at.setZone(dayZone) : value;
    return { kind: 'day', date: DateTime.utc(wall.year, wall.month, wall.day) };
  }
  if (start?.kind === 'instant' && m.kind === 'day') {
    const key = exdateKey(m, start); // the series' time that day, as an EXDATE date means it
    return { kind: 'instant', at: DateTime.fromFormat(key, "yyyyLLdd'T'HHmmss'Z'", { zone: 'utc' }).setZone(start.at.zone), zone: start.zone };
  }
  return m;
}

/** What a kept series is written as: its (first) timing, RRULE and the RDATEs and EXDATEs from its start on. */
interface KeptPlan {
  t: Timing;
  rrule: ICAL.Recur | null;
  rdates: Moment[];
  exdates: Moment[];
}

/**
 * A series as the module keeps it. The service makes a series' occurrences from its start up to
 * its horizon, and counts them against CALENDAR_RECURRENCE_MAX from there; a file's series often
 * started years ago (Google's daily series since 2012, birthdays since the year of birth). When
 * the series' start ends before the import window, or is itself excluded (an EXDATE or a
 * cancelled override: the service's series starts with an occurrence), the series starts instead
 * at its rule's occurrence that is the first the window has (or the latest rule occurrence before an
 * earlier RDATE in the window), COUNT less the occurrences before it: the rule gives the same
 * instants from there. RDATEs and EXDATEs before the new start are left out, like the occurrences before the
 * window that the expanding import leaves out. A start a previous import kept is kept when the
 * rule still gives it (the series does not move at every run). The plan is checked: when it does
 * not give the file's occurrences in the window (an RDATE in the window before the series' start,
 * which the service refuses; a rule too dense to list), null — the series is then expanded.
 */
function keptPlan(
  master: ICAL.Component,
  t: Timing,
  reader: TimeReader,
  opts: EntryOptions,
  cancelled: Moment[],
  kept?: { utc: string; wall: string },
): KeptPlan | null {
  const rule = master.getAllProperties('rrule').map((p) => readableRule(p))[0] ?? null;
  const rdates = momentsOf(master, 'rdate', reader);
  const exdates = momentsOf(master, 'exdate', reader);
  const lengthMs = momentMillis(t.end) + dayLength(t.end) - momentMillis(t.start);
  const series: SeriesRules = {
    start: t.start,
    lengthMs,
    rrules: rule ? [rule] : [],
    rdates,
    exdates,
    untilMs: (until) => untilMillis(until, t.start, reader),
  };
  const excluded = new Set([...exdates.map((m) => exdateKey(m, t.start)), ...cancelled.map(momentKey)]);
  const inWindow = (m: Moment) => momentMillis(m) + lengthMs > opts.window.fromMs && momentMillis(m) < opts.window.toMs && !excluded.has(momentKey(m));
  let start = t.start;
  let before = 0;
  if (rule && (momentMillis(t.start) + lengthMs <= opts.window.fromMs || excluded.has(momentKey(t.start)))) {
    const starts = ruleStarts(series, rule, opts.window.toMs);
    if (!starts) return null;
    const firsts = [starts.find(inWindow), ...rdates.filter(inWindow)].filter((m): m is Moment => m !== undefined).map(momentMillis);
    if (firsts.length > 0) {
      const earliest = Math.min(...firsts);
      for (let i = starts.length - 1; i > 0; i--) {
        if (momentMillis(starts[i]) <= earliest && !excluded.has(momentKey(starts[i]))) {
          before = i;
          break;
        }
      }
      const same = (m: Moment) => (m.kind === 'day' ? m.date.toISODate() === kept?.wall.slice(0, 10) : formatSql(m.at.toUTC()) === kept?.utc);
      const keptAt = kept ? starts.findIndex(same) : -1;
      if (keptAt >= 0 && keptAt < before && !excluded.has(momentKey(starts[keptAt]))) before = keptAt;
      start = starts[before];
    }
  }
  const startMs = momentMillis(start);
  // The service's first occurrence is the series' start: an earlier RDATE in the window cannot be kept.
  if (rdates.some((m) => momentMillis(m) < startMs && inWindow(m))) return null;
  let recur = rule;
  if (rule && before > 0 && rule.count !== null) {
    recur = rule.clone();
    recur.count = rule.count - before;
  }
  const plan: KeptPlan = {
    t: before === 0 ? t : { start, end: shifted(t, start) },
    rrule: recur,
    rdates: rdates.filter((m) => momentMillis(m) >= startMs),
    exdates: exdates.filter((m) => momentMillis(m) + dayLength(m) > startMs),
  };
  if (before === 0) return plan;
  // Compared with the cancelled occurrences left out on both sides (they become EXDATEs).
  const keys = (s: SeriesRules) => expandSeries({ ...s, exdates: [...s.exdates, ...cancelled] }, opts.window, Number.MAX_SAFE_INTEGER).starts.map(momentKey);
  const rebased: SeriesRules = { ...series, start, rrules: recur ? [recur] : [], rdates: plan.rdates, exdates: plan.exdates };
  return JSON.stringify(keys(series)) === JSON.stringify(keys(rebased)) ? plan : null;
}

/**
 * A recurring VEVENT kept as a series (recurrence.md §6): one entry for the series (its times, and
 * the `recurrence` lines: RRULE with UNTIL in UTC, RDATE and EXDATE in UTC, dates for all-day
 * series; a cancelled override is one more EXDATE), then one per overridden occurrence, to update
 * the occurrence that stands for it (`scope=this`: it is detached).
 */
function keptSeries(
  plan: KeptPlan,
  master: ICAL.Component,
  overrides: ICAL.Component[],
  reader: TimeReader,
  dayZone: string,
  make: {
    entry: (v: ICAL.Component, t: Timing, occurrence: string | null, extra?: Pick<EventInput, 'recurrence' | 'scope'>) => Entry;
    skipped: (reason: string) => Entry;
  },
): Entry[] {
  const t = plan.t;
  const dateLine = (name: string, m: Moment) => (m.kind === 'day' ? `${name};VALUE=DATE:${momentKey(m)}` : `${name}:${momentKey(m)}`);
  const lines = plan.rrule ? [`RRULE:${ruleValue(plan.rrule, t.start, reader)}`] : [];
  lines.push(...plan.rdates.map((m) => dateLine('RDATE', m)));
  lines.push(...plan.exdates.map((m) => dateLine('EXDATE', m)));
  const occurrences: Entry[] = [];
  for (const v of overrides) {
    const original = recurrenceIdOf(v, reader, t.start, dayZone);
    if (!original) continue;
    // A RECURRENCE-ID before the series' start here (before the window) names none of its occurrences.
    if (momentMillis(original) < momentMillis(t.start)) continue;
    if (isCancelled(v)) {
      lines.push(dateLine('EXDATE', original));
      continue;
    }
    const own = timingOf(v, reader);
    if (!own) {
      occurrences.push(make.skipped(SKIP.noStart));
      continue;
    }
    const utc = original.kind === 'day' ? wallToUtc(`${original.date.toISODate()} 00:00:00`, dayZone) : formatSql(original.at.toUTC());
    occurrences.push({ ...(make.entry(v, own, momentKey(original), { scope: 'this' }) as Extract<Entry, { kind: 'event' }>), occurrenceAt: utc });
  }
  const head = make.entry(master, t, null, { recurrence: lines, scope: 'all' }) as Extract<Entry, { kind: 'event' }>;
  return [{ ...head, firstOccurrence: momentKey(t.start) }, ...occurrences];
}

/** An RRULE value for the `recurrence` field: UNTIL in UTC (a floating or zoned UNTIL read in the series' zone), a date kept. */
function ruleValue(recur: ICAL.Recur, start: Moment, reader: TimeReader): string {
  const rule = recur.clone();
  const until = rule.until;
  rule.until = null;
  if (!until) return rule.toString();
  const value = until.isDate
    ? `${until.year}${String(until.month).padStart(2, '0')}${String(until.day).padStart(2, '0')}`
    : DateTime.fromMillis(untilMillis(until, start, reader), { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss'Z'");
  return `${rule.toString()};UNTIL=${value}`;
}

/** A day moment covers the whole day: its length is added where an end is compared. */
const dayLength = (m: Moment) => (m.kind === 'day' ? 24 * 3600_000 : 0);

/** An occurrence's end: the series' length after the occurrence's start (whole days for all-day series). */
function shifted(t: Timing, start: Moment): Moment {
  if (t.start.kind === 'day' && t.end.kind === 'day' && start.kind === 'day') {
    return { kind: 'day', date: start.date.plus({ days: Math.round(t.end.date.diff(t.start.date, 'days').days) }) };
  }
  if (t.start.kind === 'instant' && t.end.kind === 'instant' && start.kind === 'instant') {
    return { kind: 'instant', at: start.at.plus(t.end.at.diff(t.start.at)), zone: start.zone };
  }
  return start;
}

/** UNTIL as an instant: UTC as written, a floating time in the series' zone, a date as the end of that day. */
function untilMillis(until: ICAL.Time, start: Moment, reader: TimeReader): number {
  if (until.isDate) {
    const day = DateTime.utc(until.year, until.month, until.day);
    if (start.kind === 'day') return day.toMillis();
    return DateTime.fromObject({ year: day.year, month: day.month, day: day.day }, { zone: start.at.zone }).endOf('day').toMillis();
  }
  if (until.zone === ICAL.Timezone.utcTimezone || start.kind === 'day') return momentMillis(reader.moment(until, null));
  return DateTime.fromObject(
    { year: until.year, month: until.month, day: until.day, hour: until.hour, minute: until.minute, second: until.second },
    { zone: start.at.zone },
  ).toMillis();
}
