// Independent readers of iCalendar feeds: what a subscriber's calendar app makes of the service's
// own feed. ical.js (Mozilla's, used by Thunderbird and many web calendars) expands each series
// with the VTIMEZONEs as the file serves them; node-ical (rrule-temporal underneath) reads the
// same file its own way. Neither shares code with the service's expansion (the `rrule` package),
// so when both give the API's instants the feed says what the API says.
import ICAL from 'ical.js';
import * as nodeIcal from 'node-ical';

/** One occurrence as a reader sees it: UTC instants, `YYYY-MM-DD HH:MM:SS`. */
export interface SeenOccurrence {
  start: string;
  end: string;
}

/** Occurrences by UID, each list in start order. */
export type SeenCalendar = Map<string, SeenOccurrence[]>;

const sql = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

function add(seen: SeenCalendar, uid: string, occurrence: SeenOccurrence): void {
  seen.set(uid, [...(seen.get(uid) ?? []), occurrence]);
}

function sorted(seen: SeenCalendar): SeenCalendar {
  for (const list of seen.values()) list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return seen;
}

/**
 * What ical.js sees: every VEVENT of the feed with its overrides (RECURRENCE-ID), expanded from
 * the series' start up to `to` (exclusive, UTC). Its zones are the file's own VTIMEZONEs, never
 * a database of its own, so a VTIMEZONE that lacks a year's changes shows as shifted times.
 */
export function icalJsOccurrences(ics: string, to: Date, limit = 5000): SeenCalendar {
  const root = new ICAL.Component(ICAL.parse(ics));
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtz);
    zones.set(zone.tzid, zone);
  }
  // ical.js looks TZIDs up in its registry: only the file's zones are in it while this reads.
  ICAL.TimezoneService.reset();
  for (const zone of zones.values()) ICAL.TimezoneService.register(zone);
  try {
    const masters = new Map<string, ICAL.Event>();
    const overrides: ICAL.Component[] = [];
    for (const vevent of root.getAllSubcomponents('vevent')) {
      if (vevent.hasProperty('recurrence-id')) overrides.push(vevent);
      else masters.set(String(vevent.getFirstPropertyValue('uid')), new ICAL.Event(vevent));
    }
    const seen: SeenCalendar = new Map();
    for (const o of overrides) {
      const master = masters.get(String(o.getFirstPropertyValue('uid')));
      if (master) master.relateException(o);
      else add(seen, String(o.getFirstPropertyValue('uid')), occurrenceAt(new ICAL.Event(o).startDate, new ICAL.Event(o).endDate));
    }
    for (const [uid, event] of masters) {
      if (!event.isRecurring()) {
        add(seen, uid, occurrenceAt(event.startDate, event.endDate));
        continue;
      }
      const it = event.iterator();
      for (let n = 0, next = it.next(); next && n < limit; n++, next = it.next()) {
        if (next.toJSDate() >= to) break;
        const details = event.getOccurrenceDetails(next);
        add(seen, uid, occurrenceAt(details.startDate, details.endDate));
      }
    }
    return sorted(seen);
  } finally {
    ICAL.TimezoneService.reset();
  }
}

function occurrenceAt(start: ICAL.Time, end: ICAL.Time): SeenOccurrence {
  return { start: sql(start.toJSDate()), end: sql(end.toJSDate()) };
}

/** What node-ical sees: every VEVENT expanded over [from, to] (UTC), EXDATEs and overrides applied. */
export function nodeIcalOccurrences(ics: string, from: Date, to: Date): SeenCalendar {
  const data = nodeIcal.sync.parseICS(ics);
  const seen: SeenCalendar = new Map();
  for (const item of Object.values(data)) {
    if (!item || item.type !== 'VEVENT') continue;
    const event = item;
    for (const occurrence of nodeIcal.expandRecurringEvent(event, { from, to })) {
      add(seen, String(event.uid), { start: sql(occurrence.start), end: sql(occurrence.end) });
    }
  }
  return sorted(seen);
}
