import { parseRecurrence, formatRecurrence, SeriesTiming } from './recurrence-rule';
import { readSeriesFilter } from './recurrence-list.hook';
import { expandRecurrence } from './expand';
import {
  carriedFields,
  cutRule,
  exclusionOf,
  movedRule,
  movedTiming,
  readScope,
  sameSeriesMoved,
  SeriesMoveError,
  seriesSlugOf,
  withoutExclusionOf,
} from './series-plan';

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

  describe('movedRule: the rule of a series moved with one occurrence', () => {
    const HORIZON = '2029-12-31 00:00:00';
    /** The rule's lines moved from `from` to `to`, canonical (as the writer validates them), and whether the moved series is the old one moved. */
    const move = (lines: string[], from: SeriesTiming, to: SeriesTiming) => {
      const rule = parseRecurrence(lines, from);
      const moved = parseRecurrence(formatRecurrence(movedRule(rule, from, to)), to);
      const shift = Date.parse(`${to.startDate.replace(' ', 'T')}Z`) - Date.parse(`${from.startDate.replace(' ', 'T')}Z`);
      const same = sameSeriesMoved(
        expandRecurrence(from, rule, { to: HORIZON }).occurrences,
        expandRecurrence(to, moved, { to: HORIZON }).occurrences,
        shift,
        HORIZON,
      );
      return { lines: formatRecurrence(moved), same };
    };
    const monday: SeriesTiming = { ...paris, startDate: '2027-01-11 19:00:00', endDate: '2027-01-11 20:00:00' };
    /** `timing` starting at `startDate`, an hour long. */
    const at = (startDate: string, timing: SeriesTiming = monday): SeriesTiming => ({
      ...timing,
      startDate,
      endDate: new Date(Date.parse(`${startDate.replace(' ', 'T')}Z`) + 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
    });

    it.each([
      [
        'weekdays shift with the days (COUNT kept)',
        ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6'],
        '2027-01-11 19:00:00',
        '2027-01-12 19:00:00',
        ['RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU,TH'],
      ],
      [
        'a day earlier, across the week: MO,SA → SU,FR',
        ['RRULE:FREQ=WEEKLY;BYDAY=MO,SA'],
        '2027-01-11 19:00:00',
        '2027-01-10 19:00:00',
        ['RRULE:FREQ=WEEKLY;BYDAY=SU,FR'],
      ],
      [
        'every other week: WKST moves with the weekdays',
        ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU;COUNT=8'],
        '2027-01-11 19:00:00',
        '2027-01-13 19:00:00',
        ['RRULE:FREQ=WEEKLY;COUNT=8;INTERVAL=2;BYDAY=WE,TU;WKST=WE'],
      ],
      [
        'UNTIL, RDATE and EXDATE move by as much',
        ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270201T180000Z', 'RDATE:20270203T190000', 'EXDATE:20270118T190000', 'EXDATE;VALUE=DATE:20270125'],
        '2027-01-11 19:00:00',
        '2027-01-12 20:00:00',
        ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270202T190000Z', 'RDATE:20270204T200000', 'EXDATE:20270119T200000', 'EXDATE;VALUE=DATE:20270126'],
      ],
      [
        'BYMONTHDAY within 28 days',
        ['RRULE:FREQ=MONTHLY;BYMONTHDAY=10,-5;COUNT=6'],
        '2027-01-10 19:00:00',
        '2027-01-12 19:00:00',
        ['RRULE:FREQ=MONTHLY;COUNT=6;BYMONTHDAY=12,-3'],
      ],
      [
        'BYHOUR across midnight, daily',
        ['RRULE:FREQ=DAILY;BYHOUR=9,18;COUNT=4'],
        '2027-01-11 09:00:00',
        '2027-01-10 23:00:00',
        ['RRULE:FREQ=DAILY;COUNT=4;BYHOUR=8,23'],
      ],
      [
        'BYMINUTE carried into BYHOUR',
        ['RRULE:FREQ=DAILY;BYHOUR=9,18;BYMINUTE=45;COUNT=4'],
        '2027-01-11 09:45:00',
        '2027-01-11 10:15:00',
        ['RRULE:FREQ=DAILY;COUNT=4;BYHOUR=10,19;BYMINUTE=15'],
      ],
    ])('%s', (_what, lines, fromStart, toStart, expected) => {
      expect(move(lines, at(fromStart), at(toStart))).toEqual({ lines: expected, same: true });
    });

    it.each([
      ['BYMONTHDAY=-1 (the last day)', ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'], '2027-01-31 19:00:00', '2027-02-01 19:00:00', /BYMONTHDAY=-1/],
      ['BYMONTHDAY=27 moved to 29', ['RRULE:FREQ=MONTHLY;BYMONTHDAY=27'], '2027-01-27 19:00:00', '2027-01-29 19:00:00', /BYMONTHDAY=27/],
      ['a numbered BYDAY', ['RRULE:FREQ=MONTHLY;BYDAY=2MO'], '2027-01-11 19:00:00', '2027-01-12 19:00:00', /BYDAY=2MO/],
      ['BYMONTH on a weekly rule', ['RRULE:FREQ=WEEKLY;BYMONTH=1'], '2027-01-11 19:00:00', '2027-01-12 19:00:00', /BYMONTH/],
      ['BYSETPOS', ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1'], '2027-01-04 19:00:00', '2027-01-05 19:00:00', /BYSETPOS/],
      [
        'BYHOUR times that are no product once moved',
        ['RRULE:FREQ=DAILY;BYHOUR=9,18;BYMINUTE=0,45'],
        '2027-01-11 09:00:00',
        '2027-01-11 09:30:00',
        /BYHOUR=9,18;BYMINUTE=0,45/,
      ],
    ])('refuses %s', (_what, lines, fromStart, toStart, message) => {
      expect(() => move(lines, at(fromStart), at(toStart))).toThrow(SeriesMoveError);
      expect(() => move(lines, at(fromStart), at(toStart))).toThrow(message);
    });

    it('what no part says is caught by comparing the expansions: a monthly start on the 28th moved to the 29th, weekly two-a-day across midnight', () => {
      expect(move(['RRULE:FREQ=MONTHLY;COUNT=14'], at('2027-01-28 19:00:00'), at('2027-01-29 19:00:00')).same).toBe(false);
      expect(move(['RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,18;COUNT=4'], at('2027-02-01 09:00:00'), at('2027-01-31 23:00:00')).same).toBe(false);
      expect(move(['RRULE:FREQ=MONTHLY;COUNT=14'], at('2027-01-10 19:00:00'), at('2027-01-12 19:00:00')).same).toBe(true);
    });

    it('a new zone keeps the wall times: UNTIL and UTC values are read in the old zone and written for the new one', () => {
      const ny: SeriesTiming = { ...paris, timezone: 'America/New_York' };
      expect(move(['RRULE:FREQ=WEEKLY;UNTIL=20270126T185959Z', 'EXDATE:20270119T180000Z'], paris, ny)).toEqual({
        lines: ['RRULE:FREQ=WEEKLY;UNTIL=20270127T005959Z', 'EXDATE:20270120T000000Z'],
        same: true,
      });
    });

    it('leaves a rule alone when the start does not move', () => {
      const rule = parseRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE'], monday);
      expect(movedRule(rule, monday, { ...monday, endDate: '2027-01-11 22:00:00' })).toBe(rule);
    });
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
