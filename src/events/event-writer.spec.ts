import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import { invalidParam } from '../common/errors';
import type { NameList } from '../common/params';
import type { AppConfig } from '../config/app-config';
import { ChangeSet } from '../database/change-log';
import type { UnitOfWork } from '../database/unit-of-work';
import { LINKED_MESSAGE, PreparedCreate } from '../linked-items';
import type { MediaService } from '../media';
import type { PostsService } from '../posts';
import type { TermsService } from '../taxonomies';
import type { UsersService } from '../users';
import type { UpdateEventDto } from './dto/write-event.dto';
import { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { EVENT_HOOKS, type EventHook, EventHooks } from './event-hooks';
import { EventWriteAuthorize } from './event-write-authorize';
import { FORM_ORIGIN, ROUTE_ORIGIN, SERIES_ORIGIN } from './event-write-origin';
import { EventWriteParticipants } from './event-write-participants';
import { EventWritePersist } from './event-write-persist';
import { EventWritePrepare } from './event-write-prepare';
import { EventWriter } from './event-writer';
import type { EventsRepository } from './events.repository';
import type { ScheduledPublisher } from './scheduled-publisher';
import { listedHooks } from '../../test/support/hooks';

// Event creates and updates without HTTP or a database: the write pipeline's real
// steps over fakes of the repository, posts, taxonomies, venues, organizers, media and the unit of
// work, to see what it decides before storage (the order of the checks, spec endpoints.md §4.3)
// and what it hands on.

const TX = Symbol('tx');
const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const contributor: Actor = { id: 3, login: 'co', role: 'contributor' };

const valid = (over: Partial<UpdateEventDto> = {}): UpdateEventDto =>
  ({ title: 'Concert', start_date: '2030-01-01 20:00:00', end_date: '2030-01-01 22:00:00', ...over }) as UpdateEventDto;

const stored = (over: Partial<EventEntity> = {}): EventEntity =>
  Object.assign(new EventEntity(), {
    id: 10,
    authorId: 1,
    status: 'publish',
    slug: 'concert',
    title: 'Concert',
    dateUtc: '2020-01-01 00:00:00',
    statusBeforeTrash: null,
    timezone: 'UTC',
    startDate: '2030-01-01 20:00:00',
    endDate: '2030-01-01 22:00:00',
    startDateUtc: '2030-01-01 20:00:00',
    endDateUtc: '2030-01-01 22:00:00',
    allDay: false,
    ...over,
  });

/** A venue's or organizer's reads and writes, in one fake: known ids, checked and created nested items. */
function linkedItems(known: number[], createdId: number, reused = false) {
  return {
    linkableIds: jest.fn(async (_actor: unknown, ids: number[]) => new Set(ids.filter((id) => known.includes(id)))),
    prepareCreate: jest.fn(async (_actor: unknown, data: Record<string, unknown>) => new PreparedCreate(data)),
    probePrepared: jest.fn(async (p: PreparedCreate) => p),
    knownPrepared: jest.fn(async (_tx: unknown, p: PreparedCreate) => p),
    createPrepared: jest.fn(async () => ({ entity: { id: createdId }, reused })),
  };
}

/** The event hooks the app would find: these. */
const eventHooks = (...hooks: EventHook[]) => new EventHooks(listedHooks(EVENT_HOOKS, ...hooks));

function writerOn(existing: EventEntity | null = null, options: { reusedVenue?: boolean; hooks?: EventHooks } = {}) {
  const inserted: { event: EventEntity; slugBase: string }[] = [];
  const changeSets: ChangeSet[] = [];
  const events = {
    findById: jest.fn(async () => existing),
    findBySlug: jest.fn(async () => existing),
    findForUpdate: jest.fn(async () => existing),
    insert: jest.fn(async (event: EventEntity, slugBase: string) => void inserted.push({ event: { ...event } as EventEntity, slugBase })),
    save: jest.fn(),
    replaceOrganizers: jest.fn(),
  };
  const posts = { allocate: jest.fn(async () => 42), typeOf: jest.fn(async () => (existing ? 'event' : null)) };
  const taxonomies = {
    resolveForEventWrite: jest.fn(async () => [5, 6]),
    assignToEvent: jest.fn(),
    eventPublicationChanged: jest.fn(),
  };
  const venues = { items: linkedItems([20], 21, options.reusedVenue) };
  const organizers = { items: linkedItems([30, 31], 32) };
  const media = {
    choose: jest.fn(async () => ({ kind: 'keep' })),
    probeChoice: jest.fn(async (c: unknown) => c),
    knownChoice: jest.fn(async (_tx: unknown, c: unknown) => c),
    idFor: jest.fn(async () => undefined),
  };
  const users = { exists: jest.fn(async () => true) };
  const config = { timezone: 'UTC' } as AppConfig;
  const unitOfWork = {
    run: jest.fn(async (work: (tx: unknown, changes: ChangeSet) => Promise<unknown>, declared: { written?: (...a: unknown[]) => Promise<void> }[] = []) => {
      const changes = new ChangeSet();
      changeSets.push(changes);
      const out = await work(TX, changes);
      for (const p of declared) await p.written?.(TX, out, changes);
      return out;
    }),
  };
  const publisher = { noteScheduled: jest.fn() };
  const unused = {} as never;
  const presentation = new EventPresentation(
    events as unknown as EventsRepository,
    posts as unknown as PostsService,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
  );
  jest.spyOn(presentation, 'present').mockImplementation(async (rows) => rows.map((r) => ({ id: r.id, status: r.status, venue: r.venueId })));
  jest.spyOn(presentation, 'singleBody').mockImplementation(async () => null);
  const hooks = options.hooks ?? eventHooks();
  const prepare = new EventWritePrepare(
    config,
    hooks,
    users as unknown as UsersService,
    venues.items as never,
    venues.items as never,
    organizers.items as never,
    organizers.items as never,
    media as unknown as MediaService,
  );
  const persist = new EventWritePersist(
    events as unknown as EventsRepository,
    posts as unknown as PostsService,
    taxonomies as unknown as TermsService,
    venues.items as never,
    organizers.items as never,
    media as unknown as MediaService,
    prepare,
  );
  const writer = new EventWriter(
    prepare,
    new EventWriteAuthorize(presentation, posts as unknown as PostsService, events as unknown as EventsRepository),
    persist,
    new EventWriteParticipants(hooks, publisher as unknown as ScheduledPublisher),
    unitOfWork as unknown as UnitOfWork,
    presentation,
    events as unknown as EventsRepository,
  );
  const recorded = () => changeSets.flatMap((c) => c.entries());
  return { writer, events, posts, taxonomies, venues, organizers, media, unitOfWork, inserted, recorded };
}

describe('EventWriter.create (spec endpoints.md §4.3)', () => {
  it('checks parameters before permission, and refuses both before any write or outbound probe', async () => {
    const bad = writerOn();
    const err = await refusal(bad.writer.create(null, valid({ start_date: 'not a date' })));
    expect(err).toMatchObject({ code: 'rest_invalid_param', status: 400, data: expect.objectContaining({ params: { start_date: expect.any(String) } }) });

    const anonymous = writerOn();
    await expect(refusal(anonymous.writer.create(null, valid()))).resolves.toMatchObject({ code: 'rest_forbidden', status: 401 });
    for (const { unitOfWork, media, posts } of [bad, anonymous]) {
      expect(unitOfWork.run).not.toHaveBeenCalled();
      expect(media.probeChoice).not.toHaveBeenCalled();
      expect(posts.allocate).not.toHaveBeenCalled();
    }
  });

  it('writes nothing when a nested organizer is refused, even after a nested venue was accepted', async () => {
    const { writer, organizers, venues, unitOfWork } = writerOn();
    organizers.items.prepareCreate.mockRejectedValueOnce(invalidParam('organizer', LINKED_MESSAGE));
    const err = await refusal(writer.create(admin, valid({ venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ann' }] })));
    expect(err).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    expect(venues.items.prepareCreate).toHaveBeenCalled();
    expect(venues.items.probePrepared).not.toHaveBeenCalled();
    expect(venues.items.createPrepared).not.toHaveBeenCalled();
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });

  it('refuses an unknown venue id as a parameter and an unknown {id} as invalid-linked-post-id, writing nothing', async () => {
    const bare = writerOn();
    await expect(refusal(bare.writer.create(admin, valid({ venue: 99 })))).resolves.toMatchObject({
      code: 'rest_invalid_param',
      data: expect.objectContaining({ params: { venue: expect.any(String) } }),
    });
    const wrapped = writerOn();
    await expect(refusal(wrapped.writer.create(admin, valid({ organizer: [30, { id: 99 }] })))).resolves.toMatchObject({
      code: 'invalid-linked-post-id',
      status: 400,
    });
    expect(bare.unitOfWork.run).not.toHaveBeenCalled();
    expect(wrapped.unitOfWork.run).not.toHaveBeenCalled();
  });

  it('scales the status to what the caller may do (§3): contributors get pending or draft', async () => {
    const status = async (actor: Actor, requested?: string) => {
      const { writer, inserted } = writerOn();
      await writer.create(actor, valid(requested ? { status: requested } : {}));
      return inserted[0].event.status;
    };
    await expect(status(contributor, 'publish')).resolves.toBe('pending');
    await expect(status(contributor)).resolves.toBe('draft');
    await expect(status(admin)).resolves.toBe('publish');
    await expect(status(admin, 'draft')).resolves.toBe('draft');
  });

  it('hands the repository the slug base: the given slug, else the title, else the id', async () => {
    const slug = async (over: Partial<UpdateEventDto>) => {
      const { writer, inserted } = writerOn();
      await writer.create(admin, valid(over));
      return inserted[0].slugBase;
    };
    await expect(slug({ slug: 'My Night Out' })).resolves.toBe('my-night-out');
    await expect(slug({})).resolves.toBe('concert');
    await expect(slug({ title: '!!!' })).resolves.toBe('42');
  });

  it('hands the named categories to taxonomies in the transaction, with the publication state; tags untouched when not given', async () => {
    const categories: NameList = { items: ['Jazz', '7'] };
    const published = writerOn();
    await published.writer.create(admin, valid({ categories }));
    expect(published.taxonomies.resolveForEventWrite).toHaveBeenCalledTimes(1);
    expect(published.taxonomies.resolveForEventWrite).toHaveBeenCalledWith(TX, 'category', categories, admin);
    expect(published.taxonomies.assignToEvent).toHaveBeenCalledWith(TX, 42, 'category', [5, 6], true, true);

    const draft = writerOn();
    await draft.writer.create(contributor, valid({ tags: { items: ['x'] } }));
    expect(draft.taxonomies.assignToEvent).toHaveBeenCalledWith(TX, 42, 'tag', [5, 6], false, true);
  });

  it('creates a nested venue inside the transaction, links it and records it only when it is new', async () => {
    const created = writerOn();
    await expect(created.writer.create(admin, valid({ venue: { venue: 'Hall' } }))).resolves.toMatchObject({ id: 42, venue: 21 });
    expect(created.venues.items.createPrepared).toHaveBeenCalledWith(admin, expect.any(PreparedCreate), TX, expect.any(ChangeSet));
    expect(created.recorded()).toEqual(
      expect.arrayContaining([
        { type: 'event', id: 42 },
        { type: 'venue', id: 21 },
      ]),
    );

    const reused = writerOn(null, { reusedVenue: true });
    await reused.writer.create(admin, valid({ venue: { venue: 'Hall' } }));
    expect(reused.recorded()).toEqual([{ type: 'event', id: 42 }]);
  });

  it('links each organizer once, in the order given', async () => {
    const { writer, events } = writerOn();
    await writer.create(admin, valid({ organizer: [31, 30, 31] }));
    expect(events.replaceOrganizers).toHaveBeenCalledWith(TX, 42, [31, 30], true);
  });
});

describe('EventWriter updates (spec endpoints.md §4.7)', () => {
  it("refuses a contributor's update of another author's event before any write", async () => {
    const { writer, unitOfWork, media } = writerOn(stored({ authorId: 1 }));
    await expect(refusal(writer.updateById(contributor, 10, valid({ title: 'Mine now' })))).resolves.toMatchObject({ code: 'rest_forbidden', status: 403 });
    expect(unitOfWork.run).not.toHaveBeenCalled();
    expect(media.probeChoice).not.toHaveBeenCalled();
  });

  it('moves the term counts when an update publishes a draft', async () => {
    const { writer, events, taxonomies } = writerOn(stored({ status: 'draft' }));
    await writer.updateById(admin, 10, { status: 'publish' } as UpdateEventDto);
    expect(events.save).toHaveBeenCalledWith(expect.objectContaining({ id: 10, status: 'publish' }), TX, expect.anything());
    expect(taxonomies.eventPublicationChanged).toHaveBeenCalledWith(TX, 10, true);
  });
});

describe('EventWriter with event hooks', () => {
  const seats = (saved: jest.Mock = jest.fn()) =>
    eventHooks({
      params: ['seats'],
      check: (input): Record<string, string> => (input.seats === 'many' ? { seats: 'Must be a number.' } : {}),
      saved,
    });

  it("reports a hook's bad parameter together with the writer's own, before permission and writes", async () => {
    const { writer, unitOfWork } = writerOn(null, { hooks: seats() });
    const err = await refusal(writer.create(null, valid({ start_date: 'not a date' }), { seats: 'many' }));
    expect(err).toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      data: expect.objectContaining({ params: { start_date: expect.any(String), seats: expect.any(String) } }),
    });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });

  it('runs saved in the write, after the row and the links, with the raw input, the row before and the change set', async () => {
    const saved = jest.fn();
    const { writer, events } = writerOn(stored(), { hooks: seats(saved) });
    await writer.updateById(admin, 10, valid({ organizer: [30] }), undefined, { seats: 4 });
    expect(saved).toHaveBeenCalledWith(
      TX,
      expect.objectContaining({ id: 10 }),
      expect.objectContaining({ actor: admin, input: { seats: 4 }, before: expect.objectContaining({ id: 10 }), changes: expect.any(ChangeSet) }),
    );
    expect(saved.mock.invocationCallOrder[0]).toBeGreaterThan(events.replaceOrganizers.mock.invocationCallOrder[0]);
  });

  it('tells the checks and the hooks who asked for the write (a route unless the caller says otherwise)', async () => {
    const saved = jest.fn();
    const hooks = seats(saved);
    const check = jest.spyOn(hooks, 'check');
    const { writer } = writerOn(null, { hooks });
    await writer.create(admin, valid());
    await writer.create(admin, valid(), {}, FORM_ORIGIN);
    expect(check.mock.calls.map(([, ctx]) => ctx.origin)).toEqual([ROUTE_ORIGIN, FORM_ORIGIN]);
    expect(saved.mock.calls.map(([, , ctx]) => (ctx as { origin: unknown }).origin)).toEqual([ROUTE_ORIGIN, FORM_ORIGIN]);
  });
});

describe('EventWriter for an import (origin import)', () => {
  it("declares the import's participants to the unit of work, which runs them after the hooks with the stored row", async () => {
    const order: string[] = [];
    const hooks = eventHooks({ params: [], saved: async () => void order.push('saved') });
    const written = jest.fn(async (_tx: unknown, row: unknown) => void order.push(`written ${(row as EventEntity).id}`));
    const { writer, unitOfWork } = writerOn(null, { hooks });
    await writer.create(admin, valid(), {}, { kind: 'import', participants: [{ written }] });
    expect(unitOfWork.run).toHaveBeenCalledWith(expect.any(Function), [{ written }]);
    expect(order).toEqual(['saved', 'written 42']);
  });

  it('declares none for the other origins', async () => {
    const { writer, unitOfWork } = writerOn();
    await writer.create(admin, valid(), {}, SERIES_ORIGIN);
    expect(unitOfWork.run).toHaveBeenCalledWith(expect.any(Function), []);
  });
});

describe('EventWriter inside a running unit of work (EventWrites)', () => {
  const changes = () => new ChangeSet();

  it('reads through the transaction, checks linked ids once, and probes nothing', async () => {
    const { writer, venues, media } = writerOn();
    const event = await writer.createIn(TX as never, changes(), admin, valid({ venue: 20 }), {});
    expect(event.venueId).toBe(20);
    expect(venues.items.linkableIds).toHaveBeenCalledTimes(1);
    expect(venues.items.linkableIds).toHaveBeenCalledWith(admin, [20], TX);
    expect(media.choose).toHaveBeenCalledWith(admin, undefined, 'remove', TX);
    expect(media.probeChoice).not.toHaveBeenCalled();
    expect(media.knownChoice).toHaveBeenCalled();
  });

  it('checks a new venue through the transaction and reuses a known image instead of probing it', async () => {
    const { writer, venues } = writerOn();
    const event = await writer.createIn(TX as never, changes(), admin, valid({ venue: { venue: 'Hall' } }), {});
    expect(venues.items.prepareCreate).toHaveBeenCalledWith(admin, { venue: 'Hall' }, true, TX);
    expect(venues.items.knownPrepared).toHaveBeenCalledWith(TX, expect.any(PreparedCreate));
    expect(venues.items.probePrepared).not.toHaveBeenCalled();
    expect(venues.items.createPrepared).toHaveBeenCalledWith(admin, expect.any(PreparedCreate), TX, expect.any(ChangeSet));
    expect(event.venueId).toBe(21);
  });

  it('locks the row before checking the right to edit it', async () => {
    const { writer, events } = writerOn(stored({ authorId: 1 }));
    await expect(refusal(writer.updateIn(TX as never, changes(), contributor, 10, valid({ title: 'Mine' }), {}))).resolves.toMatchObject({ status: 403 });
    expect(events.findForUpdate).toHaveBeenCalledWith(10, TX);
    expect(events.save).not.toHaveBeenCalled();
  });
});
