import { formatUtcMillis, utcSqlMillis, utcToWall } from '../common/datetime/format';
import type { IcalProperty, IcalTimes } from '../events';
import { expandRecurrence, Occurrence, ruleGivesStart, toUtc } from './expand';
import { icalRecurrenceLines, ruleDateKey } from './ical-lines';
import { compact, ParsedRrule, parseRecurrence, RuleDate, SeriesTiming } from './recurrence-rule';
import type { FeedOccurrence } from './series.repository';

// A series in an iCalendar feed (recurrence.md §6; docs/compatibility.md, "A series in
// iCalendar feeds"). The series' VEVENT describes the series: the series' DTSTART and duration,
// the fields of one occurrence that follows the rule (not detached, at its original start), and
// recurrence lines reconciled with the occurrences the API has, so that a calendar app expanding
// it sees what the list shows:
//  - every start the rule gives (up to the series' made horizon) that the feed's caller is not
//    shown becomes an EXDATE: trashed, draft, gone, hidden, or detached and not in the feed;
//  - an occurrence shown past the UNTIL moves the UNTIL to it when the rule would give it
//    without its UNTIL (restored after a cut); one the rule never gives is an RDATE;
//  - every occurrence shown that does not follow the rule (detached, or moved) is a VEVENT of
//    the series' UID with its RECURRENCE-ID and its own times and fields.
// "Shown": in the feed (the window, filters and the caller's visibility as the list applies
// them), or, outside what the feed lists, published, listed, following the rule and not detached
// (the list's filters match such an occurrence as they match the series' other ones).

/** What the feed does with one series. */
export interface SeriesFeedPlan {
  /** The occurrence whose VEVENT stands for the series (its fields), retimed to the series' DTSTART. */
  master: number;
  times: IcalTimes;
  lines: IcalProperty[];
  /** Listed occurrences the series' VEVENT stands for: left out. */
  omit: number[];
  /** Listed occurrences given as overrides: their RECURRENCE-ID. */
  overrides: Map<number, IcalProperty>;
}

export interface SeriesFeedInput {
  seriesId: number;
  timing: SeriesTiming;
  /** The stored lines. */
  rule: string;
  /** UTC: every occurrence starting before this is made. */
  madeUntilUtc: string;
  occurrences: readonly FeedOccurrence[];
  /** The events the feed lists. */
  listed: ReadonlySet<number>;
}

/** Past this COUNT the feed keeps it as written rather than expand the rule to find its UNTIL. */
const MAX_COUNT_WRITTEN_AS_UNTIL = 10_000;
const END_OF_TIME = '9999-12-31 23:59:59';

/**
 * The plan of one series, or null when no occurrence shown follows the rule (every one left
 * is detached or moved): its listed occurrences then stay VEVENTs of their own.
 */
export function planSeriesFeed(input: SeriesFeedInput): SeriesFeedPlan | null {
  const { timing, listed } = input;
  const rule = parseRecurrence(input.rule === '' ? [] : input.rule.split('\n'), timing);
  const keyOf = (utcStart: string, wallStart: string) => (timing.allDay ? wallStart.slice(0, 10) : utcStart);
  // What a calendar app generates from the lines up to the made horizon: the rule and its RDATEs, without any EXDATE.
  const expanded = (rrule: ParsedRrule | null) => {
    const made = new Map<string, Occurrence>();
    for (const o of expandRecurrence(timing, { rrule, rdates: rule.rdates, exdates: [] }, { to: input.madeUntilUtc }).occurrences) {
      made.set(keyOf(o.utcOriginalStart, o.originalStart), o);
    }
    return made;
  };
  let rrule = rule.rrule;
  let generated = expanded(rrule);
  // The same rule without its UNTIL: occurrences restored after a cut still follow it.
  const uncut = rrule?.until ? expanded({ ...rrule, until: null }) : generated;
  // DTEND is DTSTART plus the series' length as written, as every occurrence's end (expand.ts):
  // the clock's reading of the end written differs when the start is in a spring-forward gap.
  const utcStart = toUtc(timing.startDate, timing.timezone);
  const utcEnd = timing.allDay
    ? toUtc(timing.endDate, timing.timezone)
    : formatUtcMillis(utcSqlMillis(utcStart) + utcSqlMillis(timing.endDate) - utcSqlMillis(timing.startDate));
  const dtstart = { utc: utcStart, utcEnd, end: timing.allDay ? timing.endDate : utcToWall(utcEnd, timing.timezone) };
  const lengthMs = utcSqlMillis(dtstart.utcEnd) - utcSqlMillis(dtstart.utc);

  const follows = (o: FeedOccurrence): boolean => {
    if (o.utcStart === null || o.utcEnd === null || o.utcStart !== o.utcOriginalStart) return false;
    if (o.timezone !== timing.timezone || o.allDay !== timing.allDay) return false;
    const made = uncut.get(keyOf(o.utcOriginalStart, o.originalStart));
    return made ? o.utcEnd === made.utcEnd : utcSqlMillis(o.utcEnd) - utcSqlMillis(o.utcStart) === lengthMs;
  };
  const shown = new Map<string, FeedOccurrence>();
  for (const o of [...input.occurrences].sort((a, b) =>
    a.utcOriginalStart < b.utcOriginalStart ? -1 : a.utcOriginalStart > b.utcOriginalStart ? 1 : a.eventId - b.eventId,
  )) {
    const key = keyOf(o.utcOriginalStart, o.originalStart);
    if (shown.has(key)) continue;
    if (listed.has(o.eventId) || (o.status === 'publish' && !o.hidden && !o.detached && follows(o))) shown.set(key, o);
  }
  const regular = [...shown.values()].filter((o) => !o.detached && follows(o));
  // The series' own first occurrence when it can, so that the VEVENT's URL does not depend on the window.
  const source = regular.find((o) => o.eventId === input.seriesId) ?? regular.find((o) => listed.has(o.eventId)) ?? regular[0];
  if (!source) return null;

  // Occurrences shown past the UNTIL that the rule would give without it: the UNTIL moves to
  // the last of them (EXDATEs remove the starts between that are not shown). Readers that
  // ignore RDATE (node-ical) then see them too; only starts off the rule need an RDATE.
  const pastUntil = [...shown.keys()].filter((key) => !generated.has(key) && uncut.has(key)).sort();
  if (rrule && pastUntil.length > 0) {
    const last = pastUntil[pastUntil.length - 1];
    rrule = { ...rrule, until: timing.allDay ? { kind: 'date', date: last } : { kind: 'utc', utc: last } };
    generated = expanded(rrule);
  }

  // A DTSTART the rule does not give is the series' first occurrence all the same (recurrence.md
  // §3, RFC 5545 §3.8.5.3), but ical.js, node-ical and dateutil leave it out, and count a COUNT
  // without it: the COUNT is written as the UNTIL it comes to, and DTSTART as an RDATE too (which
  // ical.js and Python's icalendar read; node-ical reads no RDATE).
  const ownStart: RuleDate[] = [];
  if (rrule && !ruleGivesStart(timing, rrule)) {
    ownStart.push(dateOf(keyOf(dtstart.utc, timing.startDate), timing));
    if (rrule.count !== null && rrule.count <= MAX_COUNT_WRITTEN_AS_UNTIL) {
      const all = expandRecurrence(timing, { rrule, rdates: [], exdates: [] }, { to: END_OF_TIME }, rrule.count).occurrences;
      const last = all[all.length - 1];
      const until = timing.allDay ? { kind: 'date' as const, date: last.originalStart.slice(0, 10) } : { kind: 'utc' as const, utc: last.utcOriginalStart };
      rrule = {
        ...rrule,
        body: rrule.body
          .split(';')
          .filter((part) => !part.startsWith('COUNT='))
          .join(';'),
        count: null,
        until,
      };
    }
  }

  const exdates: RuleDate[] = [...generated.keys()].filter((key) => !shown.has(key)).map((key) => dateOf(key, timing));
  // The stored EXDATEs past the made horizon still remove what the app would generate there.
  for (const d of rule.exdates) if (ruleDateKey(d, timing) >= (timing.allDay ? input.madeUntilUtc.slice(0, 10) : input.madeUntilUtc)) exdates.push(d);
  const rdates: RuleDate[] = [...rule.rdates, ...ownStart, ...[...shown.keys()].filter((key) => !generated.has(key)).map((key) => dateOf(key, timing))];
  const lines = icalRecurrenceLines({ rrule, rdates, exdates }, timing).map(property);

  const omit: number[] = [];
  const overrides = new Map<number, IcalProperty>();
  let lastUtc = dtstart.utcEnd;
  for (const o of generated.values()) if (o.utcEnd > lastUtc) lastUtc = o.utcEnd;
  for (const [key, o] of shown) {
    if (o.utcEnd !== null && o.utcEnd > lastUtc) lastUtc = o.utcEnd;
    if (o === source || !listed.has(o.eventId)) continue;
    if (o.detached || !follows(o)) overrides.set(o.eventId, recurrenceId(key, timing));
    else omit.push(o.eventId);
  }
  // Every other listed occurrence (a second one on an original start already shown) stays a VEVENT of its own.
  // Any occurrence's change (a trash, a draft, a restore) may change the series' lines.
  const modifiedUtc = input.occurrences.reduce((last, o) => (o.modifiedUtc !== null && o.modifiedUtc > last ? o.modifiedUtc : last), '');
  const times: IcalTimes = {
    start: timing.startDate,
    end: dtstart.end,
    utcStart: dtstart.utc,
    utcEnd: dtstart.utcEnd,
    lastUtc,
    ...(modifiedUtc !== '' && { modifiedUtc }),
  };
  return { master: source.eventId, times, lines, omit, overrides };
}

/** A key (a UTC start, or a day for an all-day series) as an RDATE/EXDATE value. */
function dateOf(key: string, timing: SeriesTiming): RuleDate {
  return timing.allDay ? { kind: 'date', date: key } : { kind: 'utc', utc: key };
}

/** RECURRENCE-ID: the original start, in the form of the series' RDATE/EXDATE values (ical-lines.ts). */
function recurrenceId(key: string, timing: SeriesTiming): IcalProperty {
  return timing.allDay ? { name: 'RECURRENCE-ID', params: { VALUE: 'DATE' }, value: compact(key) } : { name: 'RECURRENCE-ID', value: `${compact(key)}Z` };
}

/** `RRULE:FREQ=…`, `EXDATE;VALUE=DATE:2027…` → an IcalProperty. */
function property(line: string): IcalProperty {
  const colon = line.indexOf(':');
  const [name, ...params] = line.slice(0, colon).split(';');
  return { name, params: Object.fromEntries(params.map((p) => p.split('=') as [string, string])), value: line.slice(colon + 1) };
}
