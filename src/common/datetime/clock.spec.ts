import { Settings } from 'luxon';
import { nowUtcSql } from './clock';

describe('nowUtcSql', () => {
  const realNow = Settings.now;
  afterEach(() => (Settings.now = realNow));

  it('reads luxon’s clock, in UTC, to the second', () => {
    Settings.now = () => Date.parse('2026-03-29T00:59:59.999Z');
    expect(nowUtcSql()).toBe('2026-03-29 00:59:59');
    Settings.now = () => Date.parse('2026-03-29T01:00:00.000Z');
    expect(nowUtcSql()).toBe('2026-03-29 01:00:00');
  });

  it('follows the clock backwards as well as forwards', () => {
    Settings.now = () => Date.parse('2030-01-01T00:00:00.500Z');
    expect(nowUtcSql()).toBe('2030-01-01 00:00:00');
    Settings.now = () => Date.parse('1999-12-31T23:59:59.000Z');
    expect(nowUtcSql()).toBe('1999-12-31 23:59:59');
    Settings.now = () => Date.parse('2030-01-01T00:00:00.900Z');
    expect(nowUtcSql()).toBe('2030-01-01 00:00:00');
  });

  it('matches the current time when the clock is real', () => {
    const before = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const now = nowUtcSql();
    const after = new Date().toISOString().slice(0, 19).replace('T', ' ');
    expect(now >= before && now <= after).toBe(true);
  });
});
