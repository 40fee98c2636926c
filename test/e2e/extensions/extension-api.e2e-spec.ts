// The public extension API (extending.md §1) as a team uses it: a module defined here, outside
// src/, whose providers declare their hooks (`@Hook`), loaded into the real app. It keeps a `seats` number per
// event (in memory: tables are the capacity module's business), validates it, refuses some
// writes from its hooks, writes more events through EventWrites, adds a key, a JSON-LD member, a
// page fragment and an iCalendar property, a parameter of the venue list, and a route of its own.
import { Controller, Get, Injectable, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  API_NAMESPACE,
  ChangeSet,
  CurrentActor,
  DataVersion,
  EVENT_HOOKS,
  EVENT_LIST_HOOKS,
  EVENT_PAGE_HOOKS,
  EventEntity,
  EventReader,
  EventsModule,
  EventWrites,
  forbidden,
  Hook,
  ICAL_HOOKS,
  invalidParam,
  PathId,
  TAG_LIST_HOOKS,
  UnitOfWork,
  VENUE_LIST_HOOKS,
  VENUE_PAGE_HOOKS,
  WpError,
} from '../../../src/extend';
import type {
  Actor,
  CliRun,
  EventHook,
  EventListHook,
  EventQueryExtension,
  EventWriteContext,
  IcalHook,
  IcalPlan,
  IcalProperty,
  ListCondition,
  ListHook,
  PageHook,
  RecordExtras,
  Tx,
} from '../../../src/extend';
// The harness that boots the app (not part of the extension).
import { AppModule } from '../../../src/app.module';
import { loadConfig } from '../../../src/config/app-config';
import { ImportModule } from '../../../src/imports';
import { UsersService } from '../../../src/users';
import { FEATURES } from '../../../src/features';
import { Caller, createEvent, createTag, createVenue, EventBody, makeUsers, readEvent, uid } from '../../support/api';
import { CORE_EVENT_KEYS } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { servedDocument } from '../../support/openapi';
import { createScratchDatabase, createTestApp, EXTENSIONS_OFF, TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;

/** What the extension keeps, and what it was asked, for the tests to look at. */
@Injectable()
class SeatsRepository {
  readonly seats = new Map<number, number>();
  readonly deletes: { id: number; force: boolean; input: Json }[] = [];
  /** How often `present` was called, and for how many events. */
  readonly presented: number[] = [];
}

const seatsOf = (value: unknown): number | null => (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? Number(value) : null);

/** The field, its page fragment and its iCalendar property: one class, hooks of three features. */
@Hook(EVENT_HOOKS, EVENT_PAGE_HOOKS, ICAL_HOOKS)
@Injectable()
class SeatsHook implements EventHook, PageHook, IcalHook {
  readonly params = ['seats', 'copies', 'copy_image', 'copy_venue'];

  constructor(
    private readonly repository: SeatsRepository,
    private readonly writes: EventWrites,
  ) {}

  check(input: Json): Record<string, string> {
    const bad: Record<string, string> = {};
    // A JSON null reaches the extension as null: it clears the seats (absent leaves them).
    if (input.seats !== undefined && input.seats !== null && seatsOf(input.seats) === null) bad.seats = 'Must be a whole number of seats.';
    if (input.copies !== undefined && !['1', '2', '3'].includes(String(input.copies))) bad.copies = 'Must be 1, 2 or 3.';
    return bad;
  }

  async saved(tx: Tx, event: EventEntity, ctx: EventWriteContext): Promise<void> {
    const seats = seatsOf(ctx.input.seats);
    // A hook may refuse the write: nothing of it is kept.
    if (seats === 13) throw invalidParam('seats', 'Thirteen seats bring bad luck.');
    if (seats !== null) this.repository.seats.set(event.id, seats);
    if (ctx.input.seats === null) this.repository.seats.delete(event.id);
    const copies = Number(ctx.input.copies ?? 0);
    for (let n = 1; n <= copies; n++) {
      // More events, written under the routes' rules inside this write's unit of work.
      await this.writes.create(tx, ctx.changes, ctx.actor, {
        title: `${event.title} copy ${n}`,
        start_date: event.startDate,
        end_date: event.endDate,
        // A new venue by its data (made once, then reused by the next copy), else the event's.
        venue: ctx.input.copy_venue !== undefined ? { venue: ctx.input.copy_venue } : (event.venueId ?? undefined),
        image: ctx.input.copy_image,
        seats: ctx.input.seats,
        categories: ['Copies'],
      });
    }
  }

  async deleting(_tx: Tx, event: EventEntity, ctx: { input: Json; force: boolean }): Promise<void> {
    if (this.repository.seats.has(event.id) && ctx.input.release_seats !== 'yes') {
      throw new WpError('seats_held', 'The event still holds seats: send release_seats=yes.', 409);
    }
    this.repository.deletes.push({ id: event.id, force: ctx.force, input: ctx.input });
  }

  async present(events: readonly EventEntity[]): Promise<Map<number, RecordExtras>> {
    this.repository.presented.push(events.length);
    const out = new Map<number, RecordExtras>();
    for (const e of events) {
      const seats = this.repository.seats.get(e.id);
      // The offers are the extension's when it sells seats: they replace the one the event's cost makes.
      const offers = { '@type': 'Offer', availability: seats ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut' };
      out.set(e.id, { fields: { seats: seats ?? null }, ...(seats !== undefined && { jsonLd: { maximumAttendeeCapacity: seats, offers } }) });
    }
    return out;
  }

  pageFragment(event: Json): string | null {
    return typeof event.seats === 'number' ? `<p class="seats">Seats: ${event.seats}</p>` : null;
  }

  async icalPlan(events: readonly EventEntity[], single: boolean): Promise<IcalPlan> {
    const properties = new Map<number, IcalProperty[]>();
    const uids = new Map<number, string>();
    const omit = new Set<number>();
    for (const e of events) {
      const seats = this.repository.seats.get(e.id);
      if (seats === 0 && !single) omit.add(e.id); // no seats: not in the feed
      if (seats !== undefined) properties.set(e.id, [{ name: 'X-SEATS', params: { 'X-NOTE': 'a;b' }, value: String(seats) }]);
      if (seats !== undefined) uids.set(e.id, `seats-${e.id}@example.test`);
    }
    return { properties, uids, omit };
  }
}

/** A note on every venue page. */
@Hook(VENUE_PAGE_HOOKS)
@Injectable()
class VenueNoteHook implements PageHook {
  pageFragment(venue: Json): string | null {
    return `<p class="venue-note">Accessible: ${String(venue.venue).length > 0 ? 'ask' : ''}</p>`;
  }
}

/** TEC's `ticketed`, claimed: true lists the events with seats, false those without. */
@Hook(EVENT_LIST_HOOKS)
@Injectable()
class TicketedHook implements EventListHook {
  readonly params = ['ticketed'];

  constructor(private readonly repository: SeatsRepository) {}

  prepare(query: Json): EventQueryExtension | null {
    if (query.ticketed === undefined) return null;
    const seated = [0, ...this.repository.seats.keys()];
    return (qb) => void qb.andWhere(`e.id ${query.ticketed === 'true' ? '' : 'NOT '}IN (:...seated)`, { seated });
  }
}

/** `short=1`: tags of at most five characters. */
@Hook(TAG_LIST_HOOKS)
@Injectable()
class ShortTagsHook implements ListHook<ListCondition> {
  readonly params = ['short'];

  prepare(query: Json): ListCondition | null {
    if (query.short === undefined) return null;
    if (query.short !== '1') throw invalidParam('short', 'Must be 1.');
    return (qb) => void qb.andWhere('LENGTH(t.name) <= 5');
  }
}

/** `initial=<letter>`: venues whose name starts with it; `by_name=1`: name order first. */
@Hook(VENUE_LIST_HOOKS)
@Injectable()
class VenueInitialHook implements ListHook<ListCondition> {
  readonly params = ['initial', 'by_name'];

  prepare(query: Json): ListCondition | null {
    const { initial, by_name: byName } = query;
    if (initial === undefined && byName === undefined) return null;
    if (initial !== undefined && !(typeof initial === 'string' && /^[a-z]$/i.test(initial))) throw invalidParam('initial', 'Must be one letter.');
    return (qb) => {
      if (initial !== undefined) qb.andWhere('LOWER(v.name) LIKE :initial', { initial: `${String(initial).toLowerCase()}%` });
      if (byName !== undefined) qb.orderBy('v.name', 'ASC');
    };
  }
}

@ApiTags('seats')
@Controller(`${API_NAMESPACE}/seats`)
class SeatsController {
  constructor(
    private readonly repository: SeatsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly writes: EventWrites,
  ) {}

  @Get(':id')
  @ApiOkResponse({ description: 'The seats of an event' })
  seats(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    if (actor === null) throw forbidden(false);
    if (!this.repository.seats.has(id)) throw new WpError('seats_unknown', 'No seats are kept for this event.', 404);
    return { event: id, seats: this.repository.seats.get(id) };
  }

  /** Seats to 0, then to the trash: two event writes in one unit of work. */
  @Post(':id/retire')
  @ApiOkResponse({ description: 'Retired' })
  async retire(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    await this.unitOfWork.run(async (tx, changes) => {
      await this.writes.update(tx, changes, actor, id, { seats: 0 });
      await this.writes.remove(tx, changes, actor, id, false, { release_seats: 'yes' });
    });
    return { retired: id };
  }
}

/** Its hooks are found because they are its providers: no registration anywhere. */
@Module({
  imports: [EventsModule],
  controllers: [SeatsController],
  providers: [SeatsRepository, SeatsHook, VenueNoteHook, TicketedHook, ShortTagsHook, VenueInitialHook],
})
class SeatsModule {}

describe('the extension API (extending.md §1) with a module defined by the test', () => {
  let t: TestApp;
  let users: Record<'admin' | 'editor' | 'author' | 'author2' | 'contributor' | 'subscriber', Caller>;
  let repository: SeatsRepository;

  beforeAll(async () => {
    // The test module alone among the extensions: where its keys go is said against the core's.
    t = await createTestApp(EXTENSIONS_OFF, { features: [...FEATURES, { name: 'seats', modules: [SeatsModule] }] });
    users = await makeUsers(t);
    repository = t.app.get(SeatsRepository);
  });
  afterAll(async () => t.close());

  const list = async (query: string) => {
    const res = await http(t).get(`${API}/events?start_date=2030-01-01&end_date=2030-12-31&${query}`);
    expectStatus(res, 200);
    return res.body.events as EventBody[];
  };

  describe('event fields', () => {
    it('repositories its field on create and update (JSON and form bodies), shown after custom_fields and in the JSON-LD', async () => {
      const created = await createEvent(t, users.admin.authorization, { seats: 40 });
      expect(created.seats).toBe(40);
      const keys = Object.keys(created);
      expect(keys.indexOf('seats')).toBe(keys.indexOf('custom_fields') + 1);

      const form = await http(t, users.admin.authorization).post(`${API}/events/${created.id}`).type('form').send('seats=55');
      expectStatus(form, 200);
      expect(form.body.seats).toBe(55);
      const bySlug = await http(t, users.admin.authorization).patch(`${API}/events/by-slug/${created.slug}`).send({ seats: 60 });
      expectStatus(bySlug, 200);

      const read = await readEvent(t, created.id);
      expect(read.seats).toBe(60);
      expect(read.json_ld).toMatchObject({ '@type': 'Event', maximumAttendeeCapacity: 60 });
      expect(Object.keys(read.json_ld!)[0]).toBe('@context');
    });

    it('tells a JSON null (clear) from an absent parameter (left as it is)', async () => {
      const created = await createEvent(t, users.admin.authorization, { seats: 12 });
      const untouched = await http(t, users.admin.authorization).patch(`${API}/events/${created.id}`).send({ title: 'Seats kept' });
      expect(untouched.body.seats).toBe(12);
      const cleared = await http(t, users.admin.authorization).patch(`${API}/events/${created.id}`).send({ seats: null });
      expectStatus(cleared, 200);
      expect(cleared.body.seats).toBeNull();
    });

    it("gives the JSON-LD's offers in place of the core's", async () => {
      const priced = await createEvent(t, users.admin.authorization, { cost: '15', seats: 0 });
      expect((await readEvent(t, priced.id)).json_ld).toMatchObject({ offers: { '@type': 'Offer', availability: 'https://schema.org/SoldOut' } });
      const plain = await createEvent(t, users.admin.authorization, { cost: '15' });
      expect((await readEvent(t, plain.id)).json_ld).toMatchObject({ offers: { '@type': 'Offer', price: '15' } });
    });

    it("handles TEC's ticketed= it claims, instead of the core's 400", async () => {
      const tok = uid();
      const seated = await createEvent(t, users.admin.authorization, { title: `Seated ${tok}`, seats: 5 });
      const unseated = await createEvent(t, users.admin.authorization, { title: `Unseated ${tok}` });
      expect((await list(`ticketed=true&search=${tok}`)).map((e) => e.id)).toEqual([seated.id]);
      const others = (await list(`ticketed=false&search=${tok}`)).map((e) => e.id);
      expect(others).toEqual([unseated.id]);
    });

    it("reports its bad parameters with the writer's own checks, in one 400", async () => {
      // A title of markup only is empty once a contributor's HTML is stripped: a check of the writer's own.
      const res = await http(t, users.contributor.authorization)
        .post(`${API}/events`)
        .send({ title: '<b></b>', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', seats: 'many' });
      expectInvalidParams(res, 'title', 'seats');
    });

    it('refuses the write from its hook: nothing of the create or the update is kept', async () => {
      const title = uid('unlucky');
      expectInvalidParams(
        await http(t, users.admin.authorization)
          .post(`${API}/events`)
          .send({ title, start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', seats: 13 }),
        'seats',
      );
      expect(await list(`search=${title}`)).toEqual([]);

      const event = await createEvent(t, users.admin.authorization, { seats: 2 });
      const res = await http(t, users.admin.authorization).patch(`${API}/events/${event.id}`).send({ title: 'Renamed', seats: 13 });
      expectInvalidParams(res, 'seats');
      const read = await readEvent(t, event.id);
      expect({ title: read.title, seats: read.seats }).toEqual({ title: event.title, seats: 2 });
    });

    it('presents a whole page with one call, caches it with the page, and every write empties the cache', async () => {
      // Only this instance writes: no poll of the change log needed (one could flush the caches between two reads).
      const version = t.app.get(DataVersion);
      Object.assign(version.intervals, { pushed: 3_600_000, polled: 3_600_000 });
      const token = uid('page');
      for (let i = 0; i < 3; i++) await createEvent(t, users.admin.authorization, { title: `${token} ${i}`, seats: i });
      repository.presented.length = 0;
      const first = await list(`search=${token}`);
      expect(first.map((e) => e.seats)).toEqual([0, 1, 2]);
      expect(repository.presented).toEqual([3]);
      await list(`search=${token}`);
      expect(repository.presented).toEqual([3]); // from the read model: no call

      await http(t, users.admin.authorization).patch(`${API}/events/${first[1].id}`).send({ seats: 9 });
      expect((await list(`search=${token}`)).map((e) => e.seats)).toEqual([0, 9, 2]);
    });
  });

  describe('EventWrites: more events written by a hook, under the same rules', () => {
    it('creates the copies in the same unit of work, each with its own slug, links and extension data', async () => {
      const venue = await createVenue(t, users.admin.authorization, { venue: `Hall ${uid()}` });
      const event = await createEvent(t, users.author.authorization, { title: `Copied ${uid()}`, venue: venue.id, seats: 7, copies: 2 });
      const copies = await list(`search=${encodeURIComponent(event.title)}%20copy`);
      expect(copies.map((c) => c.title)).toEqual([`${event.title} copy 1`, `${event.title} copy 2`]);
      for (const copy of copies) {
        expect(copy).toMatchObject({ seats: 7, author: String(users.author.id), venue: { id: venue.id } });
        expect(copy.categories.map((c) => c.name)).toEqual(['Copies']);
        expect(copy.slug).not.toBe(event.slug);
      }
    });

    it('creates a venue given by its data once, inside the transaction, and links every copy to it', async () => {
      const hall = `New hall ${uid()}`;
      const event = await createEvent(t, users.admin.authorization, { title: `Moved ${uid()}`, copies: 2, copy_venue: hall });
      const copies = await list(`search=${encodeURIComponent(event.title)}%20copy`);
      expect(copies).toHaveLength(2);
      const venues = await http(t).get(`${API}/venues?search=${encodeURIComponent(hall)}`);
      expect(venues.body.venues.map((v: { id: number }) => v.id)).toEqual(copies.map((c) => (c.venue as { id: number }).id).slice(0, 1));
      expect((copies[1].venue as { id: number }).id).toBe((copies[0].venue as { id: number }).id);
    });

    it('refuses the whole write when a nested write is refused (an image URL would need a request inside the transaction)', async () => {
      const title = `Imaged ${uid()}`;
      const res = await http(t, users.admin.authorization)
        .post(`${API}/events`)
        .send({ title, start_date: '2030-04-01 10:00:00', end_date: '2030-04-01 11:00:00', copies: 1, copy_image: 'https://img.example.test/a.png' });
      expectInvalidParams(res, 'image');
      expect(await list(`search=${encodeURIComponent(title)}`)).toEqual([]);
    });

    it('applies the rights of the caller to updates and deletes made from a route of its own', async () => {
      const event = await createEvent(t, users.author.authorization, { seats: 3 });
      expectError(await http(t, users.author2.authorization).post(`${API}/seats/${event.id}/retire`), 403, 'rest_forbidden');
      expect((await readEvent(t, event.id)).seats).toBe(3);

      expectStatus(await http(t, users.author.authorization).post(`${API}/seats/${event.id}/retire`), 201);
      const read = await http(t, users.author.authorization).get(`${API}/events/${event.id}`);
      expectError(read, 403, 'event-no-longer-available');
      expect(repository.seats.get(event.id)).toBe(0);
      expect(repository.deletes.at(-1)).toEqual({ id: event.id, force: false, input: { release_seats: 'yes' } });
    });
  });

  describe('delete hooks', () => {
    it('run in the delete with the request parameters, trash and force, and may refuse it', async () => {
      const event = await createEvent(t, users.admin.authorization, { seats: 1 });
      expectError(await http(t, users.admin.authorization).delete(`${API}/events/${event.id}`), 409, 'seats_held');
      expect((await readEvent(t, event.id)).status).toBe('publish');

      expectStatus(await http(t, users.admin.authorization).delete(`${API}/events/${event.id}?release_seats=yes`), 200);
      expect(repository.deletes.at(-1)).toEqual({ id: event.id, force: false, input: { release_seats: 'yes' } });
      expectStatus(await http(t, users.admin.authorization).delete(`${API}/events/by-slug/${event.slug}__trashed?force=true&release_seats=yes`), 200);
      expect(repository.deletes.at(-1)).toEqual({ id: event.id, force: true, input: { force: 'true', release_seats: 'yes' } });
    });
  });

  describe('list parameters of venues', () => {
    it('validate (400), add conditions and a leading order, and stay in rest_url and the links', async () => {
      const token = uid('ven');
      for (const name of ['Zeta', 'Alpha', 'Zebra', 'Zulu']) await createVenue(t, users.admin.authorization, { venue: `${name} ${token}` });
      expectInvalidParams(await http(t).get(`${API}/venues?initial=zz`), 'initial');
      const res = await http(t).get(`${API}/venues?search=${token}&initial=z&by_name=1&per_page=2`);
      expectStatus(res, 200);
      expect(res.body.venues.map((v: { venue: string }) => v.venue)).toEqual([`Zebra ${token}`, `Zeta ${token}`]);
      expect(res.body.total).toBe(3);
      expect(new URL(res.body.rest_url as string).searchParams.get('initial')).toBe('z');
      expect(new URL(res.body.next_rest_url as string).searchParams.get('by_name')).toBe('1');
    });
  });

  describe('list parameters of tags', () => {
    it('filter the list and stay in rest_url', async () => {
      const token = uid('t').slice(0, 4);
      for (const name of [`${token}`, `${token}-long-name`]) await createTag(t, users.admin.authorization, { name });
      expectInvalidParams(await http(t).get(`${API}/tags?short=yes`), 'short');
      const res = await http(t).get(`${API}/tags?search=${token}&short=1&hide_empty=false`);
      expectStatus(res, 200);
      expect(res.body.tags.map((tag: { name: string }) => tag.name)).toEqual([token]);
      expect(new URL(res.body.rest_url as string).searchParams.get('short')).toBe('1');
    });
  });

  describe('routes', () => {
    it('are served under {api_root} and the /wp-json alias, with auth, errors, ETag and OpenAPI', async () => {
      const event = await createEvent(t, users.admin.authorization, { seats: 12 });
      const ours = await http(t, users.subscriber.authorization).get(`/calendar/events/v1/seats/${event.id}`);
      expectStatus(ours, 200);
      expect(ours.body).toEqual({ event: event.id, seats: 12 });
      expect(ours.headers.etag).toMatch(/^"/);
      const alias = await http(t, users.subscriber.authorization).get(`/wp-json/tribe/events/v1/seats/${event.id}`);
      expect(alias.body).toEqual(ours.body);

      expectError(await http(t).get(`${API}/seats/${event.id}`), 401, 'rest_forbidden');
      expectError(await http(t, 'Basic bm86bm8=').get(`${API}/seats/${event.id}`), 401, 'invalid_username');
      expectError(await http(t, users.subscriber.authorization).get(`${API}/seats/999999`), 404, 'seats_unknown');
      expectError(await http(t).get(`${API}/seats/abc`), 404, 'rest_no_route');

      const doc = await servedDocument<{ paths: Record<string, unknown>; tags?: { name: string }[] }>(t);
      expect(doc.paths['/seats/{id}']).toHaveProperty('get');
    });
  });

  describe('pages and iCalendar', () => {
    it('put its fragment on the event page and on venue pages', async () => {
      const venue = await createVenue(t, users.admin.authorization, { venue: `Paged ${uid()}` });
      const event = await createEvent(t, users.admin.authorization, { seats: 21, venue: venue.id });
      const page = await http(t).get(`/event/${event.slug}/`);
      expectStatus(page, 200);
      expect(page.text).toContain('<p class="seats">Seats: 21</p>');
      const venuePage = await http(t).get(`/venue/${venue.slug as string}/`);
      expect(venuePage.text).toContain('<p class="venue-note">Accessible: ask</p>');
    });

    it('add properties and UIDs to VEVENTs and leave events out of feeds as planned', async () => {
      const token = uid('ics');
      const kept = await createEvent(t, users.admin.authorization, { title: `${token} kept`, seats: 30 });
      const left = await createEvent(t, users.admin.authorization, { title: `${token} left`, seats: 0 });
      const plain = await createEvent(t, users.admin.authorization, { title: `${token} plain` });
      const feed = await http(t).get(`${API}/events.ics?start_date=2030-01-01&end_date=2030-12-31&search=${token}`);
      expectStatus(feed, 200);
      const text = feed.text;
      expect(text).toContain(`UID:seats-${kept.id}@example.test\r\n`);
      expect(text).toContain('X-SEATS;X-NOTE="a;b":30\r\n');
      expect(text).not.toContain(`${token} left`);
      expect(text).toContain(`SUMMARY:${token} plain`);
      expect(text).toContain(`UID:${plain.global_id as string}`);

      const single = await http(t).get(`${API}/events/${left.id}.ics`);
      expect(single.text).toContain('X-SEATS;X-NOTE="a;b":0\r\n');
    });
  });
});

describe('the same request with the extension off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(EXTENSIONS_OFF);
  });
  afterAll(async () => t.close());

  it('ignores its parameters: no field, no error', async () => {
    const { admin } = await makeUsers(t);
    const event = await createEvent(t, admin.authorization, { seats: 'many', copies: 2 });
    expect(event).not.toHaveProperty('seats');
    expect(Object.keys(event).slice(0, CORE_EVENT_KEYS.length)).toEqual(CORE_EVENT_KEYS);
    expectError(await http(t, admin.authorization).get(`${API}/seats/${event.id}`), 404, 'rest_no_route');
  });
});

describe("a command's work in the CLI's import context (context: 'import')", () => {
  it('reaches the service: writes an event through EventWrites in a unit of work, as a route would', async () => {
    const target = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
    const scratch = /^(mysql|mariadb):\/\//.test(target) ? await createScratchDatabase(target) : null;
    const config = loadConfig({ LOG_LEVEL: 'silent', CALENDAR_BASE_URL: 'http://127.0.0.1:3000', DATABASE_URL: scratch?.url ?? target });
    // What src/cli.ts starts for a command with context 'import'.
    const app = await NestFactory.createApplicationContext(ImportModule.forRoot(AppModule.forRoot(config)), { logger: false });
    try {
      const { user } = await app.get(UsersService).create('commander', 'administrator');
      const actor: Actor = { id: user.id, login: user.login, role: 'administrator' };
      let id = 0;
      const run: CliRun = async (context) => {
        const writes = context.get(EventWrites);
        const event = await context
          .get(UnitOfWork)
          .run((tx: Tx, changes: ChangeSet) =>
            writes.create(tx, changes, actor, { title: 'From a command', start_date: '2030-02-01 10:00', end_date: '2030-02-01 11:00' }),
          );
        id = event.id;
        return 0;
      };
      expect(await run(app)).toBe(0);
      expect(await app.get(EventReader).getById(null, id)).toMatchObject({ id, title: 'From a command', author: String(user.id) });
    } finally {
      await app.close();
      await scratch?.drop();
    }
  });
});
