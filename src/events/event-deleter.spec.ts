import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import type { WriteParticipant } from '../database/write-participants';
import { listedHooks } from '../../test/support/hooks';
import type { PostsService } from '../posts';
import type { TermsService } from '../taxonomies';
import { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { EventDeleter } from './event-deleter';
import { EVENT_HOOKS, EventHooks } from './event-hooks';
import type { EventsRepository } from './events.repository';

const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const author: Actor = { id: 5, login: 'author', role: 'author' };

const event = (fields: Partial<EventEntity>): EventEntity =>
  Object.assign(
    new EventEntity(),
    { id: 10, authorId: 5, status: 'publish', slug: 'concert', dateUtc: '2020-01-01 00:00:00', statusBeforeTrash: null },
    fields,
  );

/**
 * An EventDeleter on fakes: one stored event (or none), posts that know its type, a repository
 * that keeps what is saved, taxonomies that note publication changes, and a unit of work that
 * runs the work once. EventPresentation is the real one (its rights and finders), on the same fakes;
 * presenting answers the row's id, status and slug.
 */
function deleterOn(stored: EventEntity | null, kind: string | null = stored ? 'event' : null) {
  const saved: EventEntity[] = [];
  const publication: [number, boolean][] = [];
  const changeSets: ChangeSet[] = [];
  const events = {
    findById: jest.fn(async () => stored),
    findBySlug: jest.fn(async () => stored),
    findForUpdate: jest.fn(async () => stored),
    save: jest.fn(async (next: EventEntity) => void saved.push(next)),
    remove: jest.fn(async () => undefined),
  } as unknown as EventsRepository;
  const posts = { typeOf: jest.fn(async () => kind), release: jest.fn(async () => undefined) } as unknown as PostsService;
  const taxonomies = {
    eventPublicationChanged: jest.fn(async (_tx: Tx, id: number, published: boolean) => void publication.push([id, published])),
    eventRemoved: jest.fn(async () => undefined),
  } as unknown as TermsService;
  const unitOfWork = fakeUnitOfWork(changeSets);
  const run = jest.spyOn(unitOfWork, 'run');
  const unused = {} as never; // what only presenting needs: venues, organizers, media, config
  const presentation = new EventPresentation(events, posts, taxonomies, unused, unused, unused, unused, unused);
  const present = async (rows: EventEntity[]) => rows.map((r): Record<string, unknown> => ({ id: r.id, status: r.status, slug: r.slug }));
  jest.spyOn(presentation, 'present').mockImplementation(present);
  const deleter = new EventDeleter(events, presentation, posts, taxonomies, unitOfWork, new EventHooks(listedHooks(EVENT_HOOKS)));
  return { deleter, run, saved, publication, recorded: () => changeSets.flatMap((c) => c.entries()), writes: () => changeSets.length };
}

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WpError);
  return { status: (err as WpError).status, code: (err as WpError).code };
};

describe('EventDeleter', () => {
  it('moves an event to the trash: the status it had kept, the slug suffixed, out of the term counts, one change', async () => {
    const { deleter, saved, publication, recorded } = deleterOn(event({}));
    expect(await deleter.removeById(admin, 10)).toEqual({ id: 10, status: 'trash', slug: 'concert__trashed' });
    expect(saved.map((e) => [e.status, e.statusBeforeTrash, e.slug])).toEqual([['trash', 'publish', 'concert__trashed']]);
    expect(publication).toEqual([[10, false]]);
    expect(recorded()).toEqual([{ type: 'event', id: 10 }]);
  });

  it('answers 410 for an event already in the trash, and writes nothing', async () => {
    const { deleter, writes } = deleterOn(event({ status: 'trash', statusBeforeTrash: 'publish' }));
    expect(await failure(deleter.removeById(admin, 10))).toEqual({ status: 410, code: 'event-is-in-trash' });
    expect(writes()).toBe(0);
  });

  it('checks the right first (spec §4.9 step 2): 401 for an anonymous caller, even for an id that does not exist', async () => {
    expect(await failure(deleterOn(null).deleter.removeById(null, 99))).toEqual({ status: 401, code: 'rest_forbidden' });
    expect(await failure(deleterOn(null).deleter.removeById(admin, 99))).toEqual({ status: 404, code: 'rest-event-not-found' });
    expect(await failure(deleterOn(null, 'venue').deleter.removeById(admin, 99))).toEqual({ status: 400, code: 'rest-invalid-event-id' });
  });

  it("refuses an author another author's published event (403), and lets them trash their own", async () => {
    const others = deleterOn(event({ authorId: 6 }));
    expect(await failure(others.deleter.removeById(author, 10))).toEqual({ status: 403, code: 'rest_forbidden' });
    expect(others.writes()).toBe(0);
    expect((await deleterOn(event({})).deleter.removeBySlug(author, 'concert')).status).toBe('trash');
  });

  it("runs a trash and a delete for good with the participants its origin declares (an import's bookkeeping), as its creates and updates", async () => {
    const bookkeeping: WriteParticipant = { written: jest.fn(async () => undefined) };
    const origin = { kind: 'import', participants: [bookkeeping] } as const;
    const trashed = deleterOn(event({}));
    await trashed.deleter.removeById(admin, 10, false, undefined, {}, origin);
    expect(trashed.run).toHaveBeenCalledWith(expect.any(Function), [bookkeeping]);
    const removed = deleterOn(event({}));
    expect(await removed.deleter.removeById(admin, 10, true, undefined, {}, origin)).toEqual({
      deleted: true,
      previous: { id: 10, status: 'publish', slug: 'concert' },
    });
    expect(removed.run).toHaveBeenCalledWith(expect.any(Function), [bookkeeping]);
    expect(removed.recorded()).toEqual([{ type: 'event', id: 10 }]);
  });
});
