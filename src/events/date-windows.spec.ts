import { DateTime } from 'luxon';
import { DateWindows } from './date-windows';
import { dateWindow, WindowInput } from './event-query';

const ZONE = 'Europe/Rome';
const at = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });

describe('DateWindows', () => {
  it('answers values that read no clock from memory at any later time, as dateWindow would', () => {
    const windows = new DateWindows(ZONE);
    const q: WindowInput = { start_date: '2031-03-01', end_date: '2031-03-31 18:00', starts_after: '2031-03-02' };
    const first = windows.of(q, at('2026-01-01T10:00:00'));
    expect(first).toEqual(dateWindow(q, ZONE, at('2026-01-01T10:00:00')));
    const later = windows.of({ ...q }, at('2027-06-01T00:00:00'));
    expect(later).toBe(first); // the same answer, not parsed again
    expect(later).toEqual(dateWindow(q, ZONE, at('2027-06-01T00:00:00')));
  });

  it('answers values that read the clock again every second, right each time', () => {
    const windows = new DateWindows(ZONE);
    for (const q of [{ start_date: 'now', strict_dates: 'true' }, { end_date: '+1 week' }, { starts_before: 'tomorrow', strict_dates: '1' }] as WindowInput[]) {
      const now = at('2026-03-28T23:30:10.100');
      const first = windows.of(q, now);
      expect(first).toEqual(dateWindow(q, ZONE, now));
      expect(windows.of(q, now.plus({ milliseconds: 500 }))).toBe(first); // the same second
      for (const next of [now.plus({ seconds: 1 }), now.plus({ days: 1 }), now.plus({ days: 400 })]) {
        expect(windows.of(q, next)).toEqual(dateWindow(q, ZONE, next));
      }
      expect(windows.of(q, now.plus({ days: 1 }))).not.toEqual(first);
    }
  });

  it('remembers what was wrong with a value, and keeps parameters of different names apart', () => {
    const windows = new DateWindows(ZONE);
    const bad = windows.of({ start_date: 'not a date' }, at('2026-01-01T00:00:00'));
    expect(Object.keys(bad.bad)).toEqual(['start_date']);
    expect(windows.of({ start_date: 'not a date' }, at('2026-05-01T00:00:00')).bad).toEqual(bad.bad);
    const asStart = windows.of({ start_date: '2031-03-01' }, at('2026-01-01T00:00:00'));
    const asEnd = windows.of({ end_date: '2031-03-01' }, at('2026-01-01T00:00:00'));
    expect(asStart).not.toEqual(asEnd);
    expect(asEnd).toEqual(dateWindow({ end_date: '2031-03-01' }, ZONE, at('2026-01-01T00:00:00')));
  });

  it('moves the default window by the minute, and shares answers frozen', () => {
    const windows = new DateWindows(ZONE);
    const now = at('2026-01-01T22:59:00'); // 23:59 in Rome
    const first = windows.of({}, now);
    expect(windows.of({}, now.plus({ seconds: 59 }))).toBe(first);
    const next = windows.of({}, now.plus({ minutes: 1 }));
    expect(next).toEqual(dateWindow({}, ZONE, now.plus({ minutes: 1 })));
    expect(next).not.toEqual(first); // the site's day moved on
    expect(Object.isFrozen(first.window)).toBe(true);
    expect(Object.isFrozen(windows.of({ start_date: '2031-01-01' }, now).bad)).toBe(true);
  });
});
