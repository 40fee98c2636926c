import { DateTime, type DurationLike } from 'luxon';
import type { Actor } from '../common/auth';
import type { DataVersion } from '../common/cache/data-version.service';
import { ReadModel } from '../common/cache/read-model';
import { refusal } from '../common/errors/testing/refusal';
import type { AppConfig } from '../config/app-config';
import type { PostsService } from '../posts';
import type { TermsService } from '../taxonomies';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import type { EventPresentation } from './event-presentation';
import { EVENT_LIST_HOOKS, type EventListHook, EventListHooks } from './event-list-hooks';
import { EventListLookups } from './event-list-lookups';
import { EventReader } from './event-reader';
import type { EventListFilters } from './events.filters';
import type { EventListRepository } from './event-list.repository';
import type { ScheduledPublisher } from './scheduled-publisher';
import { CacheShares } from '../common/cache/cache-shares';
import { FEATURES } from '../features';
import { listedHooks } from '../../test/support/hooks';

// How EventReader plans a list (spec endpoints.md §4.1) without a database: fake
// repository, presentation, taxonomies, linked items and publisher; a real read model over a fake data
// version, so that what is looked up once and then cached shows. What is pinned is the plan the
// repository is handed (filters, search candidates, term plan, due cutoff), not the SQL.

const admin: Actor = { id: 1, login: 'ad', role: 'administrator' };
const EVENTS = [11, 12, 13];

function setup(opts: { searchPlan?: number[] | 'index'; due?: string; listHooks?: EventListHook[] } = {}) {
  const events = {
    countMatching: jest.fn(async (_f: EventListFilters, _extra: unknown[]) => EVENTS.length),
    pageIds: jest.fn(async (_f: EventListFilters, offset: number, limit: number, _extra: unknown[]) => EVENTS.slice(offset, offset + limit)),
    nearestIds: jest.fn(async (_f: EventListFilters, _now: string, _limit: number, _extra: unknown[]) => EVENTS),
    searchPlan: jest.fn(async (_tokens: string[]) => opts.searchPlan ?? 'index'),
    termPlan: jest.fn(async (_ids: number[]): Promise<'in' | 'exists'> => 'exists'),
    findByIds: jest.fn(async (ids: number[]) => ids.map((id) => ({ id, status: 'publish' }))),
  };
  const presentation = { present: jest.fn(async (rows: { id: number; status: string }[]) => rows.map((r) => ({ id: r.id, status: r.status }))) };
  const posts = { typeOf: jest.fn(async (id: number) => (id === 11 ? 'event' : 'venue')) };
  const taxonomies = {
    resolveFilter: jest.fn(async (taxonomy: string, list: { items: string[] }) =>
      list.items.includes('nothing') ? null : taxonomy === 'category' ? [5] : [6],
    ),
  };
  const existing = (known: number[]) => ({ existingIds: jest.fn(async (ids: number[]) => new Set(ids.filter((id) => known.includes(id)))) });
  const venues = existing([21]);
  const organizers = existing([31]);
  const listHooks = new EventListHooks(listedHooks(EVENT_LIST_HOOKS, ...(opts.listHooks ?? [])));
  const publisher = { dueCutoff: jest.fn(() => opts.due) };
  const config = { baseUrl: 'http://cal.test', timezone: 'Europe/Rome', icsMaxEvents: 500, cacheMb: 8 } as AppConfig;
  const version = { fresh: () => '1', current: async () => '1' } as unknown as DataVersion;
  const readModel = new ReadModel(version, config, CacheShares.of(FEATURES));
  const lookups = new EventListLookups(
    events as unknown as EventListRepository,
    posts as unknown as PostsService,
    taxonomies as unknown as TermsService,
    venues as never,
    organizers as never,
    readModel,
  );
  const reader = new EventReader(
    events as unknown as EventListRepository,
    presentation as unknown as EventPresentation,
    lookups,
    listHooks,
    publisher as unknown as ScheduledPublisher,
    config,
    readModel,
  );
  return { reader, events, posts, taxonomies, venues };
}

const q = (over: Partial<ListEventsQueryDto> = {}) => over as ListEventsQueryDto;
const names = (...items: string[]) => ({ items });

describe('EventReader.list: refusals before any list query', () => {
  it('ticketed=true and geo parameters nobody owns are refused first', async () => {
    const { reader, events } = setup();
    expect(await refusal(reader.list(null, q({ ticketed: true }), {}))).toMatchObject({ code: 'event-tickets-not-active', status: 400 });
    expect(await refusal(reader.list(null, q(), { geoloc: 'Rome' }))).toMatchObject({ status: 400, data: { params: ['geoloc'] } });
    expect(events.countMatching).not.toHaveBeenCalled();
  });

  it('every unknown term, linked id and bad date is reported in one 400', async () => {
    const { reader, events } = setup();
    const err = await refusal(
      reader.list(null, q({ categories: names('nothing'), tags: names('nothing'), venue: [21, 22], organizer: [39], modified_after: 'soon' }), {}),
    );
    expect(err).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    expect(Object.keys((err.data as { params: object }).params).sort()).toEqual(['categories', 'modified_after', 'organizer', 'tags', 'venue']);
    expect(events.countMatching).not.toHaveBeenCalled();
  });

  it('a post_parent that is not an event is the event id error', async () => {
    const { reader } = setup();
    expect(await refusal(reader.list(null, q({ post_parent: 21 }), {}))).toMatchObject({ code: 'rest-invalid-event-id', status: 400 });
    await expect(reader.list(null, q({ post_parent: 11 }), {})).resolves.toBeDefined();
  });
});

describe('EventReader.list: the plan handed to the repository', () => {
  it('a search with few candidates: counted and walked from those ids', async () => {
    const { reader, events } = setup({ searchPlan: [12] });
    await reader.list(null, q({ search: 'jazz night' }), {});
    expect(events.searchPlan).toHaveBeenCalledTimes(1);
    expect(events.countMatching.mock.calls[0][0]).toMatchObject({ words: ['jazz', 'night'], searchCandidates: [12] });
    expect(events.pageIds.mock.calls[0][0]).toMatchObject({ searchCandidates: [12] });
  });

  it('a search with many candidates: the index counts, and the pages walk the listing without a candidate list', async () => {
    const { reader, events } = setup({ searchPlan: 'index' });
    await reader.list(null, q({ search: 'jazz' }), {});
    expect(events.countMatching.mock.calls[0][0].searchCandidates).toBe('index');
    expect(events.pageIds.mock.calls[0][0]).not.toHaveProperty('searchCandidates');
  });

  it('words too short to narrow by plan no search at all', async () => {
    const { reader, events } = setup();
    await reader.list(null, q({ search: 'a b' }), {});
    expect(events.searchPlan).not.toHaveBeenCalled();
    expect(events.countMatching.mock.calls[0][0]).toMatchObject({ words: ['a', 'b'], searchCandidates: undefined });
  });

  it('search plans and filter lookups are asked once while the data does not move', async () => {
    const { reader, events, taxonomies, venues } = setup({ searchPlan: [12] });
    const query = q({ search: 'jazz', categories: names('music'), venue: [21] });
    await reader.list(null, query, {});
    await reader.list(null, { ...query, page: 1, per_page: 5 }, {});
    expect(events.searchPlan).toHaveBeenCalledTimes(1);
    expect(taxonomies.resolveFilter).toHaveBeenCalledTimes(1);
    expect(venues.existingIds).toHaveBeenCalledTimes(1);
    expect(events.termPlan).toHaveBeenCalledTimes(1);
  });

  it('terms: resolved ids and their plan; no term plan without terms', async () => {
    const { reader, events } = setup();
    await reader.list(null, q({ categories: names('music'), tags: names('outdoor') }), {});
    expect(events.termPlan).toHaveBeenCalledWith([5, 6]);
    expect(events.countMatching.mock.calls[0][0]).toMatchObject({ categoryIds: [5], tagIds: [6], termMatch: 'exists' });
    await reader.list(null, q(), {});
    expect(events.termPlan).toHaveBeenCalledTimes(1);
    expect(events.countMatching.mock.calls[1][0].termMatch).toBeUndefined();
  });

  it('while a scheduled event is due, the filters carry the cutoff (and so a cache key of their own)', async () => {
    const due = setup({ due: '2025-06-01 10:00:00' });
    await due.reader.list(null, q(), {});
    expect(due.events.countMatching.mock.calls[0][0].dueBefore).toBe('2025-06-01 10:00:00');
    const calm = setup();
    await calm.reader.list(null, q(), {});
    expect(calm.events.countMatching.mock.calls[0][0].dueBefore).toBeUndefined();
  });

  it('the visibility follows the caller: anonymous callers see published events only', async () => {
    const { reader, events } = setup();
    await reader.list(null, q(), {});
    await reader.list(admin, q(), {});
    expect(events.countMatching.mock.calls[0][0].visibility.statuses).toEqual(['publish']);
    expect(events.countMatching.mock.calls[1][0].visibility.statuses).toContain('draft');
  });

  it('a list hook adds its condition to both the count and the pages', async () => {
    const condition = jest.fn();
    const { reader, events } = setup({ listHooks: [{ params: ['near'], prepare: (raw) => (raw.near ? condition : null) }] });
    await reader.list(null, q(), { near: 'here' });
    expect(events.countMatching.mock.calls[0][1]).toEqual([condition]);
    expect(events.pageIds.mock.calls[0][3]).toEqual([condition]);
  });
});

describe('EventReader.icalEvents (ical.md, Export)', () => {
  /**
   * Expects `call` to ask for the window from `back` to `ahead` of now (site zone), in days: the
   * days are taken before and after the call, so that a call across midnight passes too.
   */
  async function windowOf(events: { nearestIds: jest.Mock }, back: DurationLike, ahead: DurationLike, call: () => Promise<unknown>): Promise<void> {
    const days = () => {
      const now = DateTime.utc().setZone('Europe/Rome');
      return `${now.minus(back).toISODate()}..${now.plus(ahead).toISODate()}`;
    };
    const before = days();
    await call();
    const after = days();
    const filters = events.nearestIds.mock.calls.at(-1)![0] as { startFrom?: string; endTo?: string };
    expect([before, after]).toContain(`${filters.startFrom?.slice(0, 10)}..${filters.endTo?.slice(0, 10)}`);
  }

  it('defaults to 30 days back and a year ahead, in the site zone, at most CALENDAR_ICS_MAX_EVENTS', async () => {
    const { reader, events } = setup();
    await windowOf(events, { days: 30 }, { years: 1 }, () => reader.icalEvents(null, q(), {}));
    expect(events.nearestIds.mock.calls[0][2]).toBe(500);
    await reader.icalEvents(null, q({ start_date: '2030-01-01', end_date: '2030-12-31' }), {});
    expect(events.nearestIds.mock.calls[1][0]).toMatchObject({ startFrom: '2030-01-01 00:00:00', endTo: '2030-12-31 23:59:59' });
  });

  it("with the list's window (a public page's feed), no date given means the list's default window, and covering bounds stay alone", async () => {
    const { reader, events } = setup();
    await windowOf(events, { days: 1 }, { months: 24 }, () => reader.icalEvents(null, q(), {}, 'list'));
    await reader.icalEvents(null, q({ strict_dates: 'true', starts_before: '2030-05-31 23:59:59', ends_after: '2030-05-01 00:00:01' }), {}, 'list');
    const [month] = events.nearestIds.mock.calls[1];
    expect([month.startFrom, month.startTo, month.endFrom, month.endTo]).toEqual([undefined, '2030-05-31 23:59:59', '2030-05-01 00:00:01', undefined]);
  });

  it('`include` has no window', async () => {
    const { reader, events } = setup();
    await reader.icalEvents(null, q({ include: [12] }), {});
    const [feed] = events.nearestIds.mock.calls[0];
    expect([feed.startFrom, feed.startTo, feed.endFrom, feed.endTo]).toEqual([undefined, undefined, undefined, undefined]);
    expect(feed.include).toEqual([12]);
  });
});
