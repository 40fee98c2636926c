import { DateTime } from 'luxon';

export interface GridDay {
  /** `YYYY-MM-DD` */
  date: string;
  /** Day of the month. */
  day: number;
  /** Whether the day belongs to the month shown (the others pad the first and last weeks). */
  inMonth: boolean;
}

/** The weeks of a month grid: whole weeks from the one holding the 1st to the one holding the last day. */
export function monthWeeks(month: DateTime, weekStart: number): GridDay[][] {
  const first = month.startOf('month');
  const last = month.endOf('month').startOf('day');
  let day = first.minus({ days: (first.weekday - weekStart + 7) % 7 });
  const weeks: GridDay[][] = [];
  while (day <= last) {
    const week: GridDay[] = [];
    for (let i = 0; i < 7; i += 1) {
      week.push({ date: day.toISODate()!, day: day.day, inMonth: day.month === first.month });
      day = day.plus({ days: 1 });
    }
    weeks.push(week);
  }
  return weeks;
}

/** The names of the week's days in grid order, long and short (`Monday`, `Mon`). */
export function weekdayNames(weekStart: number): { long: string; short: string }[] {
  const monday = DateTime.fromISO('2024-01-01'); // a Monday
  return Array.from({ length: 7 }, (_, i) => {
    const d = monday.plus({ days: (weekStart - 1 + i) % 7 });
    return { long: d.toFormat('cccc'), short: d.toFormat('ccc') };
  });
}

/**
 * The first and last dates (`YYYY-MM-DD`) an event covers (pages.md, "Days an event covers"):
 * the dates of its own `start_date` and `end_date`, wall times in the event's own zone, so an
 * event is on the same day for every reader and in every view, whatever the site zone. An end
 * at exactly midnight after the start does not count the day it begins. The list's window
 * (`starts_before`/`ends_after` on the same wall times) selects by the same rule.
 */
export function coveredDates(startDate: string, endDate: string): { first: string; last: string } {
  const first = startDate.slice(0, 10);
  const endDay = endDate.slice(0, 10);
  const endsAtMidnight = endDate.slice(11) === '00:00:00' && endDate > startDate;
  return { first, last: endsAtMidnight ? DateTime.fromISO(endDay).minus({ days: 1 }).toISODate()! : endDay };
}

/** `YYYY-MM` → the month (at its 1st), or null when it is not a real month. */
export function parseMonth(text: string, zone: string): DateTime | null {
  if (!/^\d{4}-\d{2}$/.test(text)) return null;
  const dt = DateTime.fromFormat(text, 'yyyy-MM', { zone });
  return dt.isValid ? dt : null;
}

/** `YYYY-MM-DD` → that day (at its start), or null when it is not a real date. */
export function parseDay(text: string, zone: string): DateTime | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const dt = DateTime.fromFormat(text, 'yyyy-MM-dd', { zone });
  return dt.isValid ? dt : null;
}
