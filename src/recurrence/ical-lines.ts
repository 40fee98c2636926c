import { utcToWall, wallToUtc } from '../common/datetime/format';
import { compact, RecurrenceRule, RuleDate, ruleLines, SeriesTiming, sortedUnique } from './recurrence-rule';

// The recurrence lines of a series' VEVENT in events.ics (recurrence.md §6, ical.md). RDATE and
// EXDATE values are written in UTC form for timed series, whatever form they were stored in: a
// UTC value means one instant for every client, needs no TZID (a `UTC±N` zone has none), and is
// never in the hour a zone repeats, where clients disagree on which pass a local time means.
// All-day series write dates (VALUE=DATE), like their DTSTART.

/** `RRULE:…`, `RDATE:…`, `EXDATE:…` lines (unfolded) for the series' VEVENT. */
export function icalRecurrenceLines(rule: RecurrenceRule, timing: SeriesTiming): string[] {
  return ruleLines(rule, (name, dates) => {
    const values = sortedUnique(dates.map((d) => icalValue(d, timing)));
    return values.length > 0 ? [`${name}${timing.allDay ? ';VALUE=DATE' : ''}:${values.join(',')}`] : [];
  });
}

/** A DATE value on a timed series is that day at the series' time of day (the occurrence it adds or removes). */
function icalValue(d: RuleDate, timing: SeriesTiming): string {
  if (timing.allDay) {
    const day = d.kind === 'date' ? d.date : d.kind === 'wall' ? d.wall.slice(0, 10) : utcToWall(d.utc, timing.timezone).slice(0, 10);
    return compact(day);
  }
  switch (d.kind) {
    case 'utc':
      return `${compact(d.utc)}Z`;
    case 'wall':
      return `${compact(wallToUtc(d.wall, timing.timezone))}Z`;
    case 'date':
      return `${compact(wallToUtc(`${d.date} ${timing.startDate.slice(11)}`, timing.timezone))}Z`;
  }
}

/** Which start an RDATE/EXDATE value names: a UTC instant for a timed series, a day for an all-day one (`YYYY-MM-DD[ HH:MM:SS]`). */
export function ruleDateKey(d: RuleDate, timing: SeriesTiming): string {
  // `20270105` → `2027-01-05`; `20270105T180000Z` → `2027-01-05 18:00:00`.
  return icalValue(d, timing).replace(
    /^(\d{4})(\d\d)(\d\d)(?:T(\d\d)(\d\d)(\d\d)Z)?$/,
    (_m, y: string, mo: string, day: string, h?: string, mi?: string, s?: string) =>
      h === undefined ? `${y}-${mo}-${day}` : `${y}-${mo}-${day} ${h}:${mi}:${s}`,
  );
}
