import { applyTiming, EventTiming } from './event-timing';

const NY = 'America/New_York';

describe('applyTiming (spec README §7, endpoints.md §4.3/§4.8)', () => {
  it.each([
    // [start, end, zone, utcStart, utcEnd]
    ['2025-03-08 09:00:00', '2025-03-08 10:00:00', NY, '2025-03-08 14:00:00', '2025-03-08 15:00:00'], // EST
    ['2025-03-10 09:00:00', '2025-03-10 10:00:00', NY, '2025-03-10 13:00:00', '2025-03-10 14:00:00'], // EDT
    ['2025-11-03 09:00:00', '2025-11-03 10:00:00', NY, '2025-11-03 14:00:00', '2025-11-03 15:00:00'], // EST again
    ['2025-07-01 12:00:00', '2025-07-01 13:00:00', 'UTC+5:45', '2025-07-01 06:15:00', '2025-07-01 07:15:00'],
    ['2025-07-01 12:00:00', '2025-07-01 13:00:00', 'UTC-3:30', '2025-07-01 15:30:00', '2025-07-01 16:30:00'],
    ['2025-07-01 12:00:00', '2025-07-01 13:00:00', 'UTC', '2025-07-01 12:00:00', '2025-07-01 13:00:00'],
  ])('%s–%s in %s is %s–%s UTC', (start, end, zone, utcStart, utcEnd) => {
    expect(applyTiming(null, { start, end, timezone: zone })).toEqual({
      startDate: start,
      endDate: end,
      startDateUtc: utcStart,
      endDateUtc: utcEnd,
      timezone: zone,
      allDay: false,
    });
  });

  it('widens all-day events to whole days in the event zone', () => {
    const t = applyTiming(null, { start: '2025-06-01 15:00:00', end: '2025-06-03 08:00:00', timezone: 'Europe/Berlin', allDay: true });
    expect(t).toMatchObject({
      startDate: '2025-06-01 00:00:00',
      endDate: '2025-06-03 23:59:59',
      startDateUtc: '2025-05-31 22:00:00',
      endDateUtc: '2025-06-03 21:59:59',
      allDay: true,
    });
  });

  it('moves an end before the start to the start', () => {
    expect(applyTiming(null, { start: '2025-06-01 15:00:00', end: '2025-06-01 09:00:00', timezone: 'UTC' }).endDate).toBe('2025-06-01 15:00:00');
    const allDay = applyTiming(null, { start: '2025-06-05 00:00:00', end: '2025-06-01 00:00:00', timezone: 'UTC', allDay: true });
    expect([allDay.startDate, allDay.endDate]).toEqual(['2025-06-05 00:00:00', '2025-06-05 23:59:59']);
  });

  it('reads an end that reads before its start as the second pass of an hour a fall-back repeats, when that makes it later', () => {
    // 01:30 EDT (05:30 UTC) to 01:15 EST (06:15 UTC) on the night New York's clocks go back.
    const night = applyTiming(null, { start: '2027-11-07 01:30:00', end: '2027-11-07 01:15:00', timezone: NY });
    expect([night.endDate, night.startDateUtc, night.endDateUtc]).toEqual(['2027-11-07 01:15:00', '2027-11-07 05:30:00', '2027-11-07 06:15:00']);
    // Outside the repeated hour such an end is moved to the start as before.
    const day = applyTiming(null, { start: '2027-11-07 03:30:00', end: '2027-11-07 03:15:00', timezone: NY });
    expect([day.endDate, day.endDateUtc]).toEqual(['2027-11-07 03:30:00', '2027-11-07 08:30:00']);
  });

  const current: EventTiming = {
    startDate: '2025-04-12 19:30:00',
    endDate: '2025-04-12 22:00:00',
    startDateUtc: '2025-04-12 23:30:00',
    endDateUtc: '2025-04-13 02:00:00',
    timezone: NY,
    allDay: false,
  };

  it('a new zone alone keeps the wall clock and moves the UTC instants', () => {
    expect(applyTiming(current, { timezone: 'Europe/Paris' })).toEqual({
      ...current,
      startDateUtc: '2025-04-12 17:30:00',
      endDateUtc: '2025-04-12 20:00:00',
      timezone: 'Europe/Paris',
    });
  });

  it('a new start alone keeps the end, or moves it to the start when it would come first', () => {
    expect(applyTiming(current, { start: '2025-04-12 20:00:00', timezone: NY }).endDate).toBe('2025-04-12 22:00:00');
    expect(applyTiming(current, { start: '2025-04-13 10:00:00', timezone: NY }).endDate).toBe('2025-04-13 10:00:00');
  });

  it('keeps all_day unless told otherwise', () => {
    const allDay = applyTiming(current, { timezone: NY, allDay: true });
    expect(applyTiming(allDay, { start: '2025-05-01 10:00:00', timezone: NY })).toMatchObject({ startDate: '2025-05-01 00:00:00', allDay: true });
  });
});
