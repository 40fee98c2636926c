import { parseRecurrence, formatRecurrence, SeriesTiming } from './recurrence-rule';
import { readSeriesFilter } from './recurrence-list.extension';
import { carriedFields, cutRule, exclusionOf, isOwnWrite, movedTiming, OWN_WRITE, readScope, seriesSlugOf, withoutExclusionOf } from './series-plan';

const paris: SeriesTiming = { startDate: '2027-01-12 19:00:00', endDate: '2027-01-12 20:00:00', timezone: 'Europe/Paris', allDay: false };

describe('series plan', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['this', 'this'],
    [' ALL ', 'all'],
    ['following', 'following'],
    ['every', 'invalid'],
    [['all'], 'invalid'],
  ])('reads scope %j as %j', (scope, expected) => {
    expect(readScope({ scope })).toBe(expected);
  });

  it('knows its own writes by a scope no request can send', () => {
    expect(isOwnWrite({ scope: OWN_WRITE })).toBe(true);
    expect(isOwnWrite(JSON.parse(JSON.stringify({ scope: OWN_WRITE })) as Record<string, unknown>)).toBe(false);
    expect(isOwnWrite({ scope: 'Symbol(recurrence: the module’s own write)' })).toBe(false);
  });

  it('carries the given fields, links as the addressed event has them, and never timing, slug or scope', () => {
    const input = { title: 'T', slug: 's', scope: 'all', start_date: 'x', venue: { venue: 'New hall' }, tags: 'a,b', featured: true };
    expect(carriedFields(input, { venue: 12, tags: [4, 5] })).toEqual({ title: 'T', venue: 12, tags: [4, 5], featured: true });
  });

  it('moves a series by the clock change of one occurrence, counting the whole days its dates move', () => {
    const later = movedTiming(
      paris,
      { startDate: '2027-01-19 19:00:00' },
      { startDate: '2027-01-20 18:30:00', endDate: '2027-01-20 20:30:00', timezone: 'Europe/Paris', allDay: false },
    );
    expect(later).toEqual({ timing: { startDate: '2027-01-13 18:30:00', endDate: '2027-01-13 20:30:00', timezone: 'Europe/Paris', allDay: false }, days: 1 });
    const allDay = movedTiming(
      paris,
      { startDate: '2027-01-12 19:00:00' },
      { startDate: '2027-01-12 00:00:00', endDate: '2027-01-12 23:59:59', timezone: 'Europe/Paris', allDay: true },
    );
    expect(allDay.timing).toMatchObject({ startDate: '2027-01-12 00:00:00', endDate: '2027-01-12 23:59:59', allDay: true });
    expect(allDay.days).toBe(0);
  });

  it('cuts a counted rule: UNTIL one second before the cut for the earlier part, the remaining COUNT for the later', () => {
    const rule = parseRecurrence(['RRULE:FREQ=WEEKLY;COUNT=10', 'RDATE:20270111T190000', 'RDATE:20270301T190000', 'EXDATE:20270209T190000'], paris);
    const { before, after } = cutRule(rule, paris, { originalStart: '2027-02-02 19:00:00', utcOriginalStart: '2027-02-02 18:00:00' }, 3);
    expect(formatRecurrence(before)).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270202T175959Z', 'RDATE:20270111T190000']);
    expect(formatRecurrence(after)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=7', 'RDATE:20270301T190000', 'EXDATE:20270209T190000']);
  });

  it('cuts an all-day rule on the day before', () => {
    const days: SeriesTiming = { ...paris, startDate: '2027-01-12 00:00:00', endDate: '2027-01-12 23:59:59', allDay: true };
    const { before } = cutRule(
      parseRecurrence(['RRULE:FREQ=DAILY'], days),
      days,
      { originalStart: '2027-01-20 00:00:00', utcOriginalStart: '2027-01-19 23:00:00' },
      8,
    );
    expect(formatRecurrence(before)).toEqual(['RRULE:FREQ=DAILY;UNTIL=20270119']);
  });

  it('adds and takes away the exclusion of one original start', () => {
    const rule = parseRecurrence(['RRULE:FREQ=WEEKLY'], paris);
    rule.exdates.push(exclusionOf('2027-01-19 19:00:00', false), exclusionOf('2027-01-26 19:00:00', false));
    expect(formatRecurrence(rule)).toEqual(['RRULE:FREQ=WEEKLY', 'EXDATE:20270119T190000', 'EXDATE:20270126T190000']);
    expect(formatRecurrence(withoutExclusionOf(rule, '2027-01-19 19:00:00', '2027-01-19 18:00:00'))).toEqual(['RRULE:FREQ=WEEKLY', 'EXDATE:20270126T190000']);
    expect(exclusionOf('2027-01-19 00:00:00', true)).toEqual({ kind: 'date', date: '2027-01-19' });
  });

  it('reads the list parameters series and hide_subsequent_recurrences, refusing bad values with 400', () => {
    expect(readSeriesFilter({})).toBeNull();
    expect(readSeriesFilter({ hide_subsequent_recurrences: 'false' })).toBeNull();
    expect(readSeriesFilter({ series: '57', hide_subsequent_recurrences: '1' })).toEqual({ series: 57, firstOnly: true });
    let error: unknown;
    try {
      readSeriesFilter({ series: 'x', hide_subsequent_recurrences: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      data: { params: { series: expect.any(String), hide_subsequent_recurrences: expect.any(String) } },
    });
  });
});

describe('seriesSlugOf', () => {
  it("reads the series' slug off its first occurrence's, dropping one date suffix (and its -2) and a trash suffix", () => {
    expect(seriesSlugOf('yoga-in-the-park-2027-01-12')).toBe('yoga-in-the-park');
    expect(seriesSlugOf('yoga-in-the-park-2027-01-12-2')).toBe('yoga-in-the-park');
    expect(seriesSlugOf('yoga-in-the-park-2027-01-12__trashed')).toBe('yoga-in-the-park');
    expect(seriesSlugOf('meetup-2027-01-12-2027-01-12')).toBe('meetup-2027-01-12');
    expect(seriesSlugOf('renamed-by-hand')).toBe('renamed-by-hand');
  });
});
