import { addSeconds, nextRunAfter, waitSeconds } from './source-schedule';

describe('source schedule (sources.md §3)', () => {
  it('waits the interval after a success', () => {
    expect(waitSeconds(60, 0, 60)).toBe(3600);
  });
  it('doubles the wait with each failure in a row, up to a day', () => {
    expect(waitSeconds(60, 1, 60)).toBe(7200);
    expect(waitSeconds(60, 2, 60)).toBe(14_400);
    expect(waitSeconds(60, 10, 60)).toBe(86_400);
    expect(waitSeconds(60, 500, 60)).toBe(86_400);
  });
  it('never waits less than an interval longer than a day', () => {
    expect(waitSeconds(2 * 1440, 3, 60)).toBe(2 * 86_400);
  });
  it('scales with the length of a minute (tests run minutes of one second)', () => {
    expect(waitSeconds(15, 1, 1)).toBe(30);
    expect(waitSeconds(15, 20, 1)).toBe(1440);
  });
  it('adds seconds to a UTC time across a day', () => {
    expect(addSeconds('2026-12-31 23:59:30', 45)).toBe('2027-01-01 00:00:15');
  });
  it('is none when disabled or by hand only, now when never run or overdue', () => {
    const now = '2026-11-28 10:00:00';
    expect(nextRunAfter({ enabled: false, intervalMinutes: 60, failures: 0 }, null, now, 60)).toBeNull();
    expect(nextRunAfter({ enabled: true, intervalMinutes: 0, failures: 0 }, null, now, 60)).toBeNull();
    expect(nextRunAfter({ enabled: true, intervalMinutes: 60, failures: 0 }, null, now, 60)).toBe(now);
    expect(nextRunAfter({ enabled: true, intervalMinutes: 60, failures: 0 }, '2026-11-28 09:30:00', now, 60)).toBe('2026-11-28 10:30:00');
    expect(nextRunAfter({ enabled: true, intervalMinutes: 60, failures: 0 }, '2026-11-28 08:00:00', now, 60)).toBe(now);
  });
});
