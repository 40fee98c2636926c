import { WpError } from '../common/errors';
import { JsonText, ListPage } from '../common/pagination';
import { AppConfig } from '../config/app-config';
import { EventIcalService, EventReader, type EventSpan, type ListEventsQueryDto } from '../events';
import { ORGANIZER_TOKENS } from '../organizers';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS } from '../venues';
import { listedHooks } from '../../test/support/hooks';
import { EVENT_PAGE_HOOKS, PageHooks } from './page-hooks';
import { newTestService } from '../../test/support/new-test-service';
import type { EventJson } from './event-view';
import { ItemPages } from './item-pages';
import { ListingPages } from './listing-pages';
import { PageReads } from './page-reads';
import { PageError, PagesService } from './pages.service';

// The public pages' rules (pages.md) without HTTP, templates or a database: the
// API's services are faked, so what is pinned is what a page asks the event list for (filters,
// windows, pages), how API refusals become page errors, and what reaches a template. The pages'
// own services (PageReads, ListingPages, ItemPages behind PagesService) are the real ones.

const SITE = 'http://site.test';

const event = (id: number, day: string, over: Partial<EventJson> = {}): EventJson => ({
  id,
  title: `Event ${id}`,
  url: `${SITE}/event/event-${id}/`,
  start_date: `${day} 10:00:00`,
  end_date: `${day} 11:00:00`,
  utc_start_date: `${day} 10:00:00`,
  utc_end_date: `${day} 11:00:00`,
  timezone: 'UTC',
  timezone_abbr: 'UTC',
  all_day: false,
  ...over,
});

/** A list answer as EventReader gives it: the events of the page, the total and the pages. */
const answer = (events: EventJson[], total = events.length, perPage = 10) =>
  new ListPage(new JsonText(JSON.stringify({ events })), total, Math.ceil(total / perPage));

/** An event as EventReader.spans gives it: its id and wall dates. */
const spanOf = (e: EventJson): EventSpan => ({ id: e.id, start: e.start_date, end: e.end_date });

function setup(listed: (q: ListEventsQueryDto) => ListPage<JsonText> | Promise<ListPage<JsonText>> = () => answer([]), matching: EventJson[] = []) {
  const byId = new Map(matching.map((e) => [e.id, e]));
  const events = {
    list: jest.fn(async (_actor: null, q: ListEventsQueryDto, _raw: Record<string, unknown>) => listed(q)),
    spans: jest.fn(async (_actor: null, _q: ListEventsQueryDto, _raw: Record<string, unknown>) => matching.map(spanOf)),
    listedItems: jest.fn(async (ids: number[]) => ids.flatMap((id) => byId.get(id) ?? [])),
    getBySlug: jest.fn(),
  };
  const item = (over: Record<string, unknown>) => ({ get: jest.fn(async () => ({ id: 5, url: `${SITE}/venue/hall/`, description: '', ...over })) });
  const venues = item({ venue: 'Hall', website: 'javascript:alert(1)' });
  const organizers = item({ organizer: 'Host', url: `${SITE}/organizer/host/`, email: 'not an <email>', website: 'https://host.test' });
  const taxonomies = {
    list: jest.fn(async (taxonomy: string, q: { slug?: string }) => {
      const terms = [
        { id: 1, slug: 'music', name: 'Music', url: `${SITE}/events/category/music/` },
        { id: 2, slug: 'jazz', name: 'Jazz', url: `${SITE}/events/category/music/jazz/` },
      ].filter((t) => q.slug === undefined || t.slug === q.slug);
      return new ListPage({ [taxonomy === 'category' ? 'categories' : 'tags']: terms }, terms.length, 1);
    }),
  };
  // The feed of a page's `?ical=1`: what it was asked with is what is pinned.
  const ical = { feed: jest.fn(async () => ({ body: 'BEGIN:VCALENDAR', filename: 'events.ics' })) };
  const config = {
    publicUrl: SITE,
    timezone: 'UTC',
    weekStart: 1,
    apiRoot: `${SITE}/wp-json/tribe/events/v1`,
    baseUrl: SITE,
    siteTitle: 'Events',
  } as AppConfig;
  // The pages' own services are real; the API's services under them are faked.
  const api = [
    { provide: EventReader, useValue: events },
    { provide: TermsService, useValue: taxonomies },
    { provide: AppConfig, useValue: config },
  ];
  const reads = newTestService(PageReads, api).sut;
  const listing = newTestService(ListingPages, [...api.filter((p) => p.provide !== TermsService), { provide: PageReads, useValue: reads }]).sut;
  const items = newTestService(ItemPages, [
    { provide: PageReads, useValue: reads },
    { provide: EventReader, useValue: events },
    { provide: VENUE_TOKENS.reads, useValue: venues },
    { provide: ORGANIZER_TOKENS.reads, useValue: organizers },
    { provide: AppConfig, useValue: config },
    // Real hooks, none found: the pages with no page hook in the app.
    { provide: PageHooks, useValue: new PageHooks(listedHooks(EVENT_PAGE_HOOKS)) },
  ]).sut;
  const pages = newTestService(PagesService, [
    { provide: ListingPages, useValue: listing },
    { provide: ItemPages, useValue: items },
    { provide: PageReads, useValue: reads },
    { provide: EventIcalService, useValue: ical },
    { provide: AppConfig, useValue: config },
  ]).sut;
  return { pages, events, venues, ical };
}

const asked = (events: { list: jest.Mock }) => events.list.mock.calls.map((c) => c[2] as Record<string, unknown>);

describe('PagesService: what a page asks the event list for', () => {
  it('the list passes on only the filters of pages.md, trimmed, and a page number only when it is one', async () => {
    const { pages, events } = setup();
    await pages.list({ search: '  jazz ', venue: '', status: 'draft', page: '2x', per_page: '50' });
    expect(asked(events)[0]).toEqual({ search: 'jazz', page: 1, per_page: 10 });
  });

  it('a day asks for the events covering it, strictly, 20 a page, all-day events first', async () => {
    const timed = event(1, '2030-05-04');
    const allDay = event(2, '2030-05-04', { all_day: true, utc_start_date: '2030-05-04 00:00:00' });
    const { pages, events } = setup(() => answer([timed, allDay]));
    const view = await pages.day('2030-05-04', {});
    expect(asked(events)[0]).toMatchObject({ strict_dates: 'true', starts_before: '2030-05-04 23:59:59', ends_after: '2030-05-04 00:00:01', per_page: 20 });
    expect((view.data.events as { title: string }[]).map((e) => e.title)).toEqual(['Event 2', 'Event 1']);
    expect(view.data.nav).toMatchObject({ previous: `${SITE}/events/2030-05-03/`, next: `${SITE}/events/2030-05-05/`, month: `${SITE}/events/month/2030-05/` });
  });

  it('a quiet month is one list query over the grid, each event placed on the days it covers, all-day first', async () => {
    const twoDays = event(1, '2030-05-04', { end_date: '2030-05-05 09:00:00' });
    const allDay = event(2, '2030-05-05', { all_day: true, utc_start_date: '2030-05-05 00:00:00' });
    const { pages, events } = setup(undefined, [twoDays, allDay]);
    const view = await pages.month('2030-05', {});
    expect(events.list).not.toHaveBeenCalled();
    expect(events.spans).toHaveBeenCalledTimes(1);
    // The visible grid: Monday 29 April to Sunday 2 June.
    expect(events.spans.mock.calls[0][2]).toMatchObject({ strict_dates: 'true', starts_before: '2030-06-02 23:59:59', ends_after: '2030-04-29 00:00:01' });
    const cells = (view.data.weeks as { date: string; events: { title: string }[] }[][]).flat();
    expect(cells.filter((c) => c.events.length > 0).map((c) => [c.date, c.events.map((e) => e.title)])).toEqual([
      ['2030-05-04', ['Event 1']],
      ['2030-05-05', ['Event 2', 'Event 1']],
    ]);
  });

  it('a busy month is one list query too: each day shows its first three events in list order and how many more, and only they are presented', async () => {
    const first = Array.from({ length: 7 }, (_, i) => event(i + 1, '2030-04-29', { all_day: i === 2, utc_start_date: `2030-04-29 0${i}:00:00` }));
    const others = Array.from({ length: 493 }, (_, i) => event(100 + i, '2030-05-20'));
    const { pages, events } = setup(undefined, [...first, ...others]);
    const view = await pages.month('2030-05', {});
    const cells = (view.data.weeks as { date: string; events: { title: string }[]; more: number }[][]).flat();
    expect(events.list).not.toHaveBeenCalled();
    expect(events.spans).toHaveBeenCalledTimes(1);
    expect(events.listedItems.mock.calls.flatMap((c) => c[0])).toEqual([1, 2, 3, 100, 101, 102]);
    expect(cells[0]).toMatchObject({ date: '2030-04-29', more: 4 });
    expect(cells[0].events.map((e) => e.title)).toEqual(['Event 3', 'Event 1', 'Event 2']); // the all-day one first
    expect(cells.find((c) => c.date === '2030-05-20')).toMatchObject({ more: 490 });
  });
});

describe("PagesService: a page's feed (?ical=1) lists what the page lists", () => {
  /** The list parameters the feed was asked with, and the default window it was told to keep. */
  const fed = (ical: { feed: jest.Mock }) => ical.feed.mock.calls.map((c) => [c[2], c[3]] as [Record<string, unknown>, string]);

  it("the list: its filters, no page, the list's own default window", async () => {
    const { pages, events, ical } = setup();
    await pages.listingIcal({ kind: 'list', query: { search: ' jazz ', page: '3', eventDisplay: 'list', tribe_display: 'past', ical: '1' } });
    expect(fed(ical)).toEqual([[{ search: 'jazz' }, 'list']]);
    expect(events.list).not.toHaveBeenCalled();
  });

  it("the month: the days of its grid, with the page's filters; the day: that day", async () => {
    const { pages, ical } = setup();
    await pages.listingIcal({ kind: 'month', month: '2030-05', query: { categories: 'music' } });
    await pages.listingIcal({ kind: 'day', day: '2030-05-04', query: {} });
    expect(fed(ical)).toEqual([
      [{ categories: 'music', strict_dates: 'true', starts_before: '2030-06-02 23:59:59', ends_after: '2030-04-29 00:00:01' }, 'list'],
      [{ strict_dates: 'true', starts_before: '2030-05-04 23:59:59', ends_after: '2030-05-04 00:00:01' }, 'list'],
    ]);
  });

  it("a term, a venue, an organizer: that record's events; what has no page has no feed", async () => {
    const { pages, ical } = setup();
    await pages.listingIcal({ kind: 'term', taxonomy: 'category', segments: ['music', 'jazz'], query: { search: 'ignored' } });
    await pages.listingIcal({ kind: 'venue', slug: 'hall', query: {} });
    await pages.listingIcal({ kind: 'organizer', slug: 'host', query: {} });
    expect(fed(ical).map(([params]) => params)).toEqual([{ categories: '2' }, { venue: '5' }, { organizer: '5' }]);
    await expect(pages.listingIcal({ kind: 'term', taxonomy: 'category', segments: ['jazz'], query: {} })).rejects.toMatchObject({ status: 404 });
    await expect(pages.listingIcal({ kind: 'month', month: '2030-13', query: {} })).rejects.toMatchObject({ status: 404 });
    await expect(pages.listingIcal({ kind: 'list', query: { venue: 'abc' } })).rejects.toMatchObject({ status: 400 });
    expect(ical.feed).toHaveBeenCalledTimes(3);
  });
});

describe('PagesService: refusals become pages', () => {
  it('an invalid filter value is a 400 page without asking the list', async () => {
    const { pages, events } = setup();
    await expect(pages.list({ venue: 'abc' })).rejects.toMatchObject({ status: 400 });
    expect(events.list).not.toHaveBeenCalled();
  });

  it("the list's 404 (a page past the last) is a 404 page, its 400s a 400 page; a 5xx is not turned into a page", async () => {
    const refuse = (err: Error) => setup(() => Promise.reject(err)).pages.list({});
    const pageError = async (err: Error) => (await refuse(err).catch((e: unknown) => e)) as PageError;
    expect(await pageError(new WpError('event-archive-page-not-found', 'no page', 404))).toEqual(expect.any(PageError));
    expect((await pageError(new WpError('event-archive-page-not-found', 'no page', 404))).status).toBe(404);
    expect((await pageError(new WpError('rest_invalid_param', 'bad', 400))).status).toBe(400);
    const bug = new WpError('rest_internal_error', 'bug', 500);
    await expect(refuse(bug)).rejects.toBe(bug);
  });

  it('a single item the API refuses (unknown, hidden, trashed) is a 404 page', async () => {
    const { pages, events } = setup();
    events.getBySlug.mockRejectedValueOnce(new WpError('event-not-accessible', 'hidden', 403));
    await expect(pages.event('hidden')).rejects.toMatchObject({ status: 404 });
  });

  it('a nested category answers only at its own path', async () => {
    const { pages } = setup();
    await expect(pages.term('category', ['jazz'], {})).rejects.toMatchObject({ status: 404 });
    expect((await pages.term('category', ['music', 'jazz'], {})).data.title).toBe('Category: Jazz');
  });
});

describe('PagesService: what reaches a template', () => {
  it('pager links keep the filters; the canonical link names the page only past the first', async () => {
    const { pages } = setup(() => answer([event(1, '2030-05-04')], 30));
    const second = await pages.list({ search: 'jazz', page: '2' });
    expect(second.data.canonical).toBe(`${SITE}/events/?search=jazz&page=2`);
    expect(second.data.pager).toEqual({ previous: `${SITE}/events/?search=jazz`, next: `${SITE}/events/?search=jazz&page=3`, page: 2, pages: 3 });
    expect((await pages.list({ search: 'jazz' })).data.canonical).toBe(`${SITE}/events/?search=jazz`);
  });

  it('a website that is not http(s) and an address that is not an e-mail never become links', async () => {
    const { pages } = setup();
    const venue = await pages.venue('hall', {});
    expect((venue.data.item as { website?: string }).website).toBeUndefined();
    const organizer = await pages.organizer('host', {});
    expect(organizer.data.item).toMatchObject({ email: undefined, website: 'https://host.test' });
  });
});
