import type { AppConfig } from '../config/app-config';
import { EventEntity, ROUTE_ORIGIN, SERIES_ORIGIN } from '../events';
import { RecurrenceEventHook } from './recurrence-event.hook';
import { RecurrenceIcalHook } from './recurrence-ical.hook';
import type { FeedOccurrence, PresentedOccurrence, SeriesRepository } from './series.repository';
import { utcToWall } from '../common/datetime/format';
import { SeriesOccurrences } from './series-occurrences';
import { SeriesWriter } from './series-writer';

// The extension's own decisions without a database, in its event and iCalendar hooks: which parameters it refuses
// before anything is written, what it adds to representations, and the iCalendar plan of a
// feed, on a fake repository.

const config = {
  apiRoot: 'http://x/calendar/events/v1',
  publicUrl: 'http://x',
  baseUrl: 'http://x',
  timezone: 'UTC',
  recurrenceMax: 5,
  recurrenceHorizonDays: 730,
} as AppConfig;

function event(over: Partial<EventEntity>): EventEntity {
  return Object.assign(new EventEntity(), {
    status: 'publish',
    timezone: 'Europe/Paris',
    allDay: false,
    startDate: '2027-01-12 19:00:00',
    endDate: '2027-01-12 20:00:00',
    ...over,
  });
}

const feedRow = (eventId: number, utcOriginalStart: string): FeedOccurrence => ({
  eventId,
  seriesId: 57,
  originalStart: utcToWall(utcOriginalStart, 'Europe/Paris'),
  utcOriginalStart,
  detached: false,
  status: 'publish',
  hidden: false,
  timezone: 'Europe/Paris',
  allDay: false,
  utcStart: utcOriginalStart,
  modifiedUtc: '2026-11-01 10:00:00',
  utcEnd: utcOriginalStart.replace(/ (\d\d)/, (_m, h: string) => ` ${String(Number(h) + 1).padStart(2, '0')}`),
});

const row = (eventId: number, over: Partial<PresentedOccurrence> = {}): PresentedOccurrence => ({
  eventId,
  seriesId: 57,
  originalStart: '2027-01-19 19:00:00',
  utcOriginalStart: '2027-01-19 18:00:00',
  detached: false,
  rule: 'RRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:20270126T190000',
  firstSlug: 'yoga',
  firstStatus: 'publish',
  ...over,
});

function hooks(rows: PresentedOccurrence[] = [], inSeries = false) {
  const series = {
    id: 57,
    rule: rows[0]?.rule ?? '',
    startDate: '2027-01-12 19:00:00',
    endDate: '2027-01-12 20:00:00',
    timezone: 'Europe/Paris',
    allDay: false,
    madeUntilUtc: '2029-01-01 00:00:00',
  };
  const repository = {
    occurrenceOf: jest.fn(async () => (inSeries ? { seriesId: 57 } : null)),
    presented: jest.fn(async (ids: readonly number[]) => new Map(rows.filter((r) => ids.includes(r.eventId)).map((r) => [r.eventId, r]))),
    eventsById: jest.fn(async (_r: unknown, ids: number[]) => ids.map((id) => event({ id }))),
    feedOccurrences: jest.fn(async (): Promise<FeedOccurrence[]> => []),
    seriesByIds: jest.fn(async () => [series]),
    findSeries: jest.fn(async () => series),
  };
  const occurrences = new SeriesOccurrences(repository as unknown as SeriesRepository, {} as never, config);
  const writer = new SeriesWriter(repository as unknown as SeriesRepository, occurrences, {} as never, {} as never);
  return {
    ext: new RecurrenceEventHook(repository as unknown as SeriesRepository, writer, config),
    ical: new RecurrenceIcalHook(repository as unknown as SeriesRepository, config),
    repository,
  };
}

describe('RecurrenceEventHook and RecurrenceIcalHook', () => {
  it('check: a bad scope, and a rule that breaks a limit, for the timing the write would give', async () => {
    const { ext } = hooks();
    const create = { start_date: '2027-01-12 19:00', end_date: '2027-01-12 20:00', timezone: 'Europe/Paris' };
    expect(
      await ext.check({ ...create, recurrence: ['RRULE:FREQ=DAILY;COUNT=6'], scope: 'some' }, { actor: null, current: null, origin: ROUTE_ORIGIN }),
    ).toEqual({
      scope: 'Must be one of this, following, all.',
      recurrence: 'The rule gives more than 5 occurrences before the horizon.',
    });
    expect(await ext.check({ ...create, recurrence: ['RRULE:FREQ=DAILY;COUNT=5'] }, { actor: null, current: null, origin: ROUTE_ORIGIN })).toEqual({});
    // Dates the core refuses are the core's to say: the rule is not checked then.
    expect(await ext.check({ start_date: 'soon', end_date: 'later', recurrence: ['nonsense'] }, { actor: null, current: null, origin: ROUTE_ORIGIN })).toEqual(
      {},
    );
    // The module's own writes (origin `series`) are not checked again; the same input from a route is.
    expect(await ext.check({ scope: 'x', recurrence: 'x' }, { actor: null, current: null, origin: SERIES_ORIGIN })).toEqual({});
    expect(await ext.check({ scope: 'x' }, { actor: null, current: null, origin: ROUTE_ORIGIN })).toEqual({ scope: 'Must be one of this, following, all.' });
  });

  it('check: on an occurrence, recurrence with the default scope (this) is refused; with all it is checked against its timing', async () => {
    const { ext } = hooks([], true);
    const current = event({ id: 60 });
    expect(Object.keys(await ext.check({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'] }, { actor: null, current, origin: ROUTE_ORIGIN }))).toEqual(['recurrence']);
    expect(await ext.check({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'], scope: 'all' }, { actor: null, current, origin: ROUTE_ORIGIN })).toEqual({});
  });

  it('present: recurrence and series on every event (empty outside a series), superEvent on all but the first, in one read', async () => {
    const { ext, repository } = hooks([
      row(57, { originalStart: '2027-01-12 19:00:00', utcOriginalStart: '2027-01-12 18:00:00' }),
      row(60, { detached: true }),
    ]);
    const out = await ext.present([event({ id: 57 }), event({ id: 60 }), event({ id: 99 })]);
    expect(repository.presented).toHaveBeenCalledTimes(1);
    expect(out.get(99)).toEqual({ fields: { recurrence: [], series: null } });
    expect(out.get(57)).toEqual({
      fields: {
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270126T190000'],
        series: {
          id: 57,
          rest_url: 'http://x/calendar/events/v1/events/57/occurrences',
          original_start: '2027-01-12 19:00:00',
          utc_original_start: '2027-01-12 18:00:00',
          detached: false,
        },
      },
    });
    expect(out.get(60)?.jsonLd).toEqual({ superEvent: 'http://x/event/yoga/' });
    expect(out.get(60)?.fields?.series).toMatchObject({ detached: true });
  });

  it('ical: a feed gives the series once (its first occurrence, added when only later ones are listed, at the series DTSTART) and detached ones with a RECURRENCE-ID', async () => {
    const { ical, repository } = hooks([row(60), row(61, { detached: true, originalStart: '2027-01-26 19:00:00', utcOriginalStart: '2027-01-26 18:00:00' })]);
    repository.feedOccurrences.mockResolvedValue([
      feedRow(57, '2027-01-12 18:00:00'),
      feedRow(60, '2027-01-19 18:00:00'),
      { ...feedRow(61, '2027-01-26 18:00:00'), detached: true, utcStart: '2027-01-26 20:00:00', utcEnd: '2027-01-26 21:00:00' },
    ]);
    const plan = await ical.icalPlan([event({ id: 60 }), event({ id: 61 })], false);
    expect(repository.eventsById).toHaveBeenCalledTimes(1);
    expect(plan.add?.map((e) => e.id)).toEqual([57]);
    expect([...(plan.omit ?? [])]).toEqual([60]);
    expect(plan.uids?.get(57)).toBe('x?id=57');
    expect(plan.uids?.get(61)).toBe('x?id=57');
    expect(plan.times?.get(57)).toMatchObject({ start: '2027-01-12 19:00:00', utcStart: '2027-01-12 18:00:00', utcEnd: '2027-01-12 19:00:00' });
    expect(plan.properties?.get(61)).toEqual([{ name: 'RECURRENCE-ID', value: '20270126T180000Z' }]);
    expect(plan.properties?.get(57)?.map((p) => `${p.name}:${p.value}`)).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
    expect(await ical.icalPlan([event({ id: 60 })], true)).toEqual({});
  });
});
