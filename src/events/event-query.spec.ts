import { DateTime } from 'luxon';
import { dateWindow } from './event-query';
import { searchWords } from './events.filters';

// A Wednesday, 15:20 UTC.
const NOW = DateTime.fromISO('2025-03-12T15:20:00Z', { zone: 'UTC' });

describe('dateWindow (spec endpoints.md §4.1.1–§4.1.2)', () => {
  it('defaults to yesterday 00:00 until now + 24 months, whole days', () => {
    const { window, bad } = dateWindow({}, 'UTC', NOW);
    expect(bad).toEqual({});
    expect(window).toEqual({
      startFrom: '2025-03-11 00:00:00',
      endTo: '2027-03-12 23:59:59',
      echo: { start_date: '2025-03-11 00:00:00', end_date: '2027-03-12 23:59:59' },
      startTo: undefined,
      endFrom: undefined,
    });
  });

  it('counts days in the site zone', () => {
    const late = DateTime.fromISO('2025-03-12T23:30:00Z', { zone: 'UTC' });
    expect(dateWindow({}, 'Asia/Tokyo', late).window.startFrom).toBe('2025-03-12 00:00:00');
  });

  it('widens given bounds to whole days unless strict', () => {
    expect(dateWindow({ start_date: '2025-05-01 10:00', end_date: '2025-05-03 08:00' }, 'UTC', NOW).window).toMatchObject({
      startFrom: '2025-05-01 00:00:00',
      endTo: '2025-05-03 23:59:59',
    });
    expect(dateWindow({ start_date: '2025-05-01 10:00', end_date: '2025-05-03 08:00', strict_dates: 'true' }, 'UTC', NOW).window).toMatchObject({
      startFrom: '2025-05-01 10:00:00',
      endTo: '2025-05-03 08:00:00',
    });
    expect(dateWindow({ start_date: '2025-05-01 10:00', strict_dates: 'false' }, 'UTC', NOW).window.startFrom).toBe('2025-05-01 00:00:00');
  });

  it('drops the defaults when an extra bound is given, and moves each bound to 23:59:59', () => {
    const { window } = dateWindow({ starts_after: '2025-01-01 10:00' }, 'UTC', NOW);
    expect(window).toMatchObject({ startFrom: '2025-01-01 23:59:59', endTo: undefined, echo: { start_date: undefined, end_date: undefined } });
    expect(dateWindow({ ends_before: '2025-02-01', end_date: '2026-01-01' }, 'UTC', NOW).window).toMatchObject({
      startFrom: undefined,
      endTo: '2025-02-01 23:59:59',
    });
  });

  it('ignores every date bound with include', () => {
    expect(dateWindow({ include: [1], start_date: '2025-01-01' }, 'UTC', NOW).window).toEqual({ echo: {} });
  });

  it('reports unparsable values', () => {
    expect(dateWindow({ start_date: 'foo', ends_after: 'before my birthday' }, 'UTC', NOW).bad).toEqual({
      start_date: expect.any(String),
      ends_after: expect.any(String),
    });
  });

  it('understands relative input', () => {
    expect(dateWindow({ start_date: 'tomorrow', end_date: '+1 week' }, 'UTC', NOW).window).toMatchObject({
      startFrom: '2025-03-13 00:00:00',
      endTo: '2025-03-19 23:59:59',
    });
  });
});

describe('searchWords (spec §4.1.3)', () => {
  it.each([
    ['jazz night', ['jazz', 'night']],
    ['  jazz   ', ['jazz']],
    ['"jazz night" river', ['jazz night', 'river']],
    ['"unclosed phrase', ['"unclosed', 'phrase']],
  ])('%p → %p', (input, words) => expect(searchWords(input)).toEqual(words));
});
