import { planSeriesFeed, SeriesFeedInput } from './series-feed';
import type { FeedOccurrence } from './series.repository';
import { SeriesTiming } from './recurrence-rule';

// A series' VEVENT reconciled with the occurrences the feed's caller is shown (recurrence.md §6,
// docs/compatibility.md, "A series in iCalendar feeds"): which starts become EXDATEs, where the
// UNTIL goes, which occurrences are overrides, and which one gives the series' fields.

const paris: SeriesTiming = { startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 20:00:00', timezone: 'Europe/Paris', allDay: false };
/** Five Tuesdays in January 2027 (18:00 UTC), ids 10…14. */
const starts = ['2027-01-05', '2027-01-12', '2027-01-19', '2027-01-26', '2027-02-02'].map((d) => `${d} 18:00:00`);

function occurrence(n: number, over: Partial<FeedOccurrence> = {}): FeedOccurrence {
  const utc = starts[n];
  return {
    eventId: 10 + n,
    seriesId: 10,
    originalStart: `${utc.slice(0, 10)} 19:00:00`,
    utcOriginalStart: utc,
    detached: false,
    status: 'publish',
    hidden: false,
    timezone: 'Europe/Paris',
    allDay: false,
    utcStart: utc,
    utcEnd: `${utc.slice(0, 10)} 19:00:00`,
    modifiedUtc: '2026-11-01 10:00:00',
    ...over,
  };
}

function input(over: Partial<SeriesFeedInput>): SeriesFeedInput {
  return {
    seriesId: 10,
    timing: paris,
    rule: 'RRULE:FREQ=WEEKLY;COUNT=5',
    madeUntilUtc: '2029-01-01 00:00:00',
    occurrences: [0, 1, 2, 3, 4].map((n) => occurrence(n)),
    listed: new Set([10, 11, 12, 13, 14]),
    ...over,
  };
}

const lines = (plan: ReturnType<typeof planSeriesFeed>) =>
  plan?.lines.map((p) => `${[p.name, ...Object.entries(p.params ?? {}).map(([k, v]) => `${k}=${v}`)].join(';')}:${p.value}`);

describe('planSeriesFeed', () => {
  it('a plain series: the first occurrence stands for all at the series DTSTART, the others are left out', () => {
    const plan = planSeriesFeed(input({}));
    expect(plan).toMatchObject({
      master: 10,
      omit: [11, 12, 13, 14],
      times: { start: '2027-01-05 19:00:00', utcStart: '2027-01-05 18:00:00', lastUtc: '2027-02-02 19:00:00' },
    });
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5']);
  });

  it('the series VEVENT is as new as the latest change of any occurrence, shown or not', () => {
    const occurrences = [occurrence(0, { status: 'trash', modifiedUtc: '2026-11-20 08:00:00' }), ...[1, 2, 3, 4].map((n) => occurrence(n))];
    expect(planSeriesFeed(input({ occurrences }))?.times.modifiedUtc).toBe('2026-11-20 08:00:00');
  });

  it('the first occurrence moved on its own: another gives the fields, the series keeps its DTSTART, the first is an override', () => {
    const moved = occurrence(0, { detached: true, utcStart: '2027-01-06 07:00:00', utcEnd: '2027-01-06 08:00:00' });
    const plan = planSeriesFeed(input({ occurrences: [moved, ...[1, 2, 3, 4].map((n) => occurrence(n))] }));
    expect(plan).toMatchObject({ master: 11, omit: [12, 13, 14], times: { utcStart: '2027-01-05 18:00:00' } });
    expect(plan?.overrides).toEqual(new Map([[10, { name: 'RECURRENCE-ID', value: '20270105T180000Z' }]]));
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5']);
  });

  it('what the caller is not shown becomes an EXDATE: trashed, draft, gone, hidden, or detached outside the feed', () => {
    const plan = planSeriesFeed(
      input({
        occurrences: [
          occurrence(0, { status: 'trash' }),
          occurrence(1, { status: null, utcStart: null, utcEnd: null }),
          occurrence(2, { status: 'draft' }),
          occurrence(3, { hidden: true }),
          occurrence(4, { detached: true }),
        ],
        listed: new Set(),
      }),
    );
    expect(plan).toBeNull();
    const some = planSeriesFeed(
      input({
        occurrences: [
          occurrence(0, { status: 'trash' }),
          occurrence(1),
          occurrence(2, { status: 'draft' }),
          occurrence(3, { hidden: true }),
          occurrence(4, { detached: true }),
        ],
        listed: new Set([11]),
      }),
    );
    expect(some).toMatchObject({ master: 11, omit: [] });
    expect(lines(some)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE:20270105T180000Z,20270119T180000Z,20270126T180000Z,20270202T180000Z']);
  });

  it('outside the feed, a published occurrence that follows the rule is shown (the window cut it, not a filter)', () => {
    const plan = planSeriesFeed(input({ listed: new Set([13]) }));
    expect(plan).toMatchObject({ master: 10, omit: [13] });
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5']);
  });

  it('an occurrence restored past the UNTIL moves the UNTIL to it; the starts between that are not shown are excluded', () => {
    const plan = planSeriesFeed(
      input({
        rule: 'RRULE:FREQ=WEEKLY;UNTIL=20270112T175959Z',
        occurrences: [occurrence(0), occurrence(1), occurrence(2, { status: 'trash' }), occurrence(3)],
        listed: new Set([10, 11, 13]),
      }),
    );
    expect(plan).toMatchObject({ master: 10, omit: [11, 13] });
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270126T180000Z', 'EXDATE:20270119T180000Z']);
  });

  it('a start a made occurrence lacks is excluded; a stored EXDATE past the made horizon is kept', () => {
    const plan = planSeriesFeed(
      input({
        rule: 'RRULE:FREQ=WEEKLY\nEXDATE:20270126T190000\nEXDATE:20270209T190000',
        madeUntilUtc: '2027-02-03 00:00:00',
        occurrences: [occurrence(0), occurrence(2), occurrence(4)],
        listed: new Set([10, 12, 14]),
      }),
    );
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY', 'EXDATE:20270112T180000Z,20270126T180000Z,20270209T180000Z']);
    expect(plan?.times.lastUtc).toBe('2027-02-02 19:00:00');
  });

  it('an all-day series: dates', () => {
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'Europe/Paris', allDay: true };
    const day = (n: number, over: Partial<FeedOccurrence> = {}) => {
      const date = starts[n].slice(0, 10);
      const utc = `${new Date(Date.parse(`${date}T00:00:00Z`) - 3_600_000).toISOString().slice(0, 19).replace('T', ' ')}`;
      return occurrence(n, { originalStart: `${date} 00:00:00`, utcOriginalStart: utc, utcStart: utc, utcEnd: `${date} 22:59:59`, allDay: true, ...over });
    };
    const plan = planSeriesFeed(
      input({
        timing: allDay,
        occurrences: [day(0), day(1, { status: 'draft' }), day(2, { detached: true }), day(3), day(4)],
        listed: new Set([10, 12, 13, 14]),
      }),
    );
    expect(lines(plan)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;VALUE=DATE:20270112']);
    expect(plan?.overrides).toEqual(new Map([[12, { name: 'RECURRENCE-ID', params: { VALUE: 'DATE' }, value: '20270119' }]]));
  });
});
