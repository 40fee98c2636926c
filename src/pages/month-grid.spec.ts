import { DateTime } from 'luxon';
import { coveredDates, monthWeeks, parseDay, parseMonth, weekdayNames } from './month-grid';

describe('monthWeeks', () => {
  it('whole weeks from the week of the 1st to the week of the last day, from the configured weekday', () => {
    // March 2026: Sunday 1st to Tuesday 31st.
    const monday = monthWeeks(DateTime.fromISO('2026-03-01'), 1);
    expect(monday.map((w) => [w[0].date, w[6].date])).toEqual([
      ['2026-02-23', '2026-03-01'],
      ['2026-03-02', '2026-03-08'],
      ['2026-03-09', '2026-03-15'],
      ['2026-03-16', '2026-03-22'],
      ['2026-03-23', '2026-03-29'],
      ['2026-03-30', '2026-04-05'],
    ]);
    expect(monday[0].map((d) => d.inMonth)).toEqual([false, false, false, false, false, false, true]);
    const sunday = monthWeeks(DateTime.fromISO('2026-03-01'), 7);
    expect(sunday.map((w) => w[0].date)).toEqual(['2026-03-01', '2026-03-08', '2026-03-15', '2026-03-22', '2026-03-29']);
  });

  it('counts days, not hours, across a change of offset', () => {
    const weeks = monthWeeks(DateTime.fromISO('2026-03-01', { zone: 'Europe/Berlin' }), 1);
    expect(weeks.flat().map((d) => d.day)).toContain(29);
    expect(new Set(weeks.flat().map((d) => d.date)).size).toBe(weeks.length * 7);
  });
});

describe('weekdayNames and parsing', () => {
  it('names the days in grid order', () => {
    expect(weekdayNames(1).map((d) => d.short)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames(7)[0]).toEqual({ long: 'Sunday', short: 'Sun' });
  });
  it('accepts real months and days only', () => {
    expect(parseMonth('2026-02', 'UTC')?.toISODate()).toBe('2026-02-01');
    expect(parseMonth('2026-13', 'UTC')).toBeNull();
    expect(parseMonth('2026-2', 'UTC')).toBeNull();
    expect(parseDay('2028-02-29', 'UTC')?.toISODate()).toBe('2028-02-29');
    expect(parseDay('2026-02-29', 'UTC')).toBeNull();
  });
});

describe('coveredDates (pages.md: days an event covers)', () => {
  it.each([
    ['one evening', '2027-04-16 19:30:00', '2027-04-16 22:00:00', '2027-04-16', '2027-04-16'],
    ['all day', '2027-12-24 00:00:00', '2027-12-24 23:59:59', '2027-12-24', '2027-12-24'],
    ['across midnight', '2027-04-20 22:00:00', '2027-04-21 02:00:00', '2027-04-20', '2027-04-21'],
    ['an end at exactly midnight does not count the next day', '2027-04-22 20:00:00', '2027-04-23 00:00:00', '2027-04-22', '2027-04-22'],
    ['to midnight after three days', '2027-03-27 00:00:00', '2027-03-30 00:00:00', '2027-03-27', '2027-03-29'],
    ['across the end of a month and a year', '2027-12-31 23:00:00', '2028-01-01 00:00:00', '2027-12-31', '2027-12-31'],
    ['starting at midnight, no length', '2027-04-22 00:00:00', '2027-04-22 00:00:00', '2027-04-22', '2027-04-22'],
  ])('%s', (_what, start, end, first, last) => {
    expect(coveredDates(start, end)).toEqual({ first, last });
  });
});
