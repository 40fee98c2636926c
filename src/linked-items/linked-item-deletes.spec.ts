import { QueryFailedError } from 'typeorm';
import type { Actor } from '../common/auth';
import { LinkedItemDeletes } from './linked-item-deletes';
import type { LinkedItemReads } from './linked-item-reads';
import { type LinkedItemEntity, type LinkedItemErrorCodes, linkedItemErrors } from './linked-items';
import type { LinkedItemsParts, LinkedKind } from './linked-kind';

// The deletes of venues and organizers without HTTP or a database: fake reads, a fake repository
// and unit of work, to see the order of the checks and what reaches storage.

const TX = Symbol('tx');
const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const contributor: Actor = { id: 3, login: 'co', role: 'contributor' };

const item = (over: Partial<LinkedItemEntity> = {}): LinkedItemEntity =>
  ({ id: 7, authorId: 1, status: 'publish', dateUtc: '2025-01-01 00:00:00', name: 'Hall', slug: 'hall', ...over }) as LinkedItemEntity;

const KIND = {
  type: 'venue',
  // Only the codes a delete can answer matter here; the others are named after their key.
  errors: linkedItemErrors('venue', {
    ...(Object.fromEntries(['notAccessible', 'pageNotFound', 'couldNotCreate', 'couldNotUpdate'].map((k) => [k, k])) as Omit<
      LinkedItemErrorCodes,
      'inTrash' | 'couldNotDelete'
    >),
    inTrash: 'venue-is-in-trash',
    couldNotDelete: 'could-not-delete-venue',
  }),
} as LinkedKind<LinkedItemEntity>;

function setup(stored: LinkedItemEntity | null, current: LinkedItemEntity | null = stored) {
  const changes = { record: jest.fn() };
  const reads = {
    require: jest.fn(async () => {
      if (!stored) throw new Error('unknown');
      return stored;
    }),
    unknown: jest.fn(() => new Error('gone')),
    singleBody: jest.fn(async () => ({ id: 7 })),
    presentOne: jest.fn(async (i: LinkedItemEntity) => ({ id: i.id, status: i.status })),
  };
  const repo = {
    findForUpdate: jest.fn(async () => current),
    trash: jest.fn(async (i: LinkedItemEntity) => ({ ...i, status: 'trash' })),
    remove: jest.fn(),
  };
  // The transaction handle is opaque here: the fakes only pass it along.
  const unitOfWork = { run: jest.fn(async (work: (tx: unknown, c: typeof changes) => Promise<unknown>) => work(TX, changes)) };
  const parts = { repo, unitOfWork, posts: { release: jest.fn() }, hooks: { deleting: jest.fn() } };
  const deletes = new LinkedItemDeletes(
    KIND,
    reads as unknown as LinkedItemReads<LinkedItemEntity>,
    parts as unknown as Pick<LinkedItemsParts<LinkedItemEntity>, 'repo' | 'posts' | 'hooks' | 'unitOfWork'>,
  );
  return { deletes, reads, repo, unitOfWork, changes };
}

describe('LinkedItemDeletes.remove (spec endpoints.md §5.3 DELETE)', () => {
  it('moves the item to the trash in one unit of work, records the change and answers the trashed item', async () => {
    const { deletes, repo, unitOfWork, changes } = setup(item());
    await expect(deletes.remove(editor, { id: 7 })).resolves.toEqual({ id: 7, status: 'trash' });
    expect(unitOfWork.run).toHaveBeenCalledTimes(1);
    expect(changes.record).toHaveBeenCalledWith('venue', 7);
    expect(repo.trash).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), 'publish', expect.any(String), TX);
  });

  it('refuses a caller who may not delete it (403, 401 when anonymous) before touching storage', async () => {
    const { deletes, unitOfWork } = setup(item());
    await expect(deletes.remove(contributor, { id: 7 })).rejects.toMatchObject({ code: 'rest_forbidden', status: 403 });
    await expect(deletes.remove(null, { id: 7 })).rejects.toMatchObject({ code: 'rest_forbidden', status: 401 });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });

  it('answers 410 for an item already in the trash, and when a concurrent delete came first', async () => {
    const trashed = setup(item({ status: 'trash' }));
    await expect(trashed.deletes.remove(editor, { id: 7 })).rejects.toMatchObject({ code: 'venue-is-in-trash', status: 410 });
    expect(trashed.unitOfWork.run).not.toHaveBeenCalled();

    const raced = setup(item(), item({ status: 'trash' }));
    await expect(raced.deletes.remove(editor, { slug: 'hall' })).rejects.toMatchObject({ code: 'venue-is-in-trash' });
    expect(raced.repo.trash).not.toHaveBeenCalled();
  });

  it("answers the kind's could-not-delete code when storage fails, and lets its own errors through", async () => {
    const failing = setup(item());
    failing.repo.trash.mockRejectedValueOnce(new QueryFailedError('UPDATE', [], new Error('disk')));
    await expect(failing.deletes.remove(editor, { id: 7 })).rejects.toMatchObject({ code: 'could-not-delete-venue', status: 500 });

    const gone = setup(item(), null);
    await expect(gone.deletes.remove(editor, { id: 7 })).rejects.toThrow('gone');
  });
});
