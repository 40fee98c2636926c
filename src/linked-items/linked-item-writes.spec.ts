import { Allow } from 'class-validator';
import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import { OUTER } from '../database/tx';
import type { LinkedItemReads } from './linked-item-reads';
import { LinkedItemWrites } from './linked-item-writes';
import { LINKED_MESSAGE, type LinkedItemEntity, type LinkedItemErrorCodes, linkedItemErrors } from './linked-items';
import { LINKED_ITEM_TEXT } from './linked-item-text';
import { LinkedItemFieldsDto } from './linked-items.dto';
import type { LinkedItemsParts, LinkedKind } from './linked-kind';

// The creates and updates of venues and organizers without HTTP or a database:
// fake reads, repository, media and unit of work, to see duplicate reuse (spec endpoints.md
// §5.2), status scaling (§3) and that a refused write reaches no storage.

const TX = Symbol('tx');
const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const contributor: Actor = { id: 3, login: 'co', role: 'contributor' };

/** The kind's own name parameter, as a venue's create DTO declares it. */
class NamedFieldsDto extends LinkedItemFieldsDto {
  @Allow()
  venue?: string;
}

const KIND = {
  type: 'venue',
  text: { rules: { ...LINKED_ITEM_TEXT.rules, venue: 'plain' }, varchars: LINKED_ITEM_TEXT.varchars },
  createDto: NamedFieldsDto,
  fields: { phone: 'phone' },
  defaults: { phone: '' },
  errors: linkedItemErrors(
    'venue',
    Object.fromEntries(
      ['notAccessible', 'inTrash', 'pageNotFound', 'couldNotCreate', 'couldNotUpdate', 'couldNotDelete'].map((k) => [k, k]),
    ) as unknown as LinkedItemErrorCodes,
  ),
} as unknown as LinkedKind<LinkedItemEntity>;

const item = (over: Partial<LinkedItemEntity> & { phone?: string } = {}): LinkedItemEntity =>
  ({ id: 7, authorId: 1, status: 'publish', dateUtc: '2025-01-01 00:00:00', name: 'Hall', slug: 'hall', description: 'Big hall', ...over }) as LinkedItemEntity;

function setup(duplicate: LinkedItemEntity | null = null, problems: Record<string, string> = {}) {
  const changes = { record: jest.fn() };
  const repo = {
    findDuplicate: jest.fn(async () => duplicate),
    lockName: jest.fn(),
    insert: jest.fn(),
    update: jest.fn(),
    findForUpdate: jest.fn(async () => duplicate),
    underFreeSlug: jest.fn(async (entity: LinkedItemEntity, base: string, _tx: unknown, write: () => Promise<void>) => {
      entity.slug = base;
      await write();
    }),
  };
  const reads = {
    require: jest.fn(async () => duplicate),
    unknown: jest.fn(() => new Error('gone')),
    singleBody: jest.fn(async () => null),
    presentOne: jest.fn(async (i: LinkedItemEntity) => ({ id: i.id, status: i.status, name: i.name })),
  };
  const unitOfWork = { run: jest.fn(async (work: (tx: unknown, c: typeof changes) => Promise<unknown>) => work(TX, changes)) };
  const parts = {
    repo,
    unitOfWork,
    posts: { allocate: jest.fn(async () => 50) },
    media: { probeChoice: jest.fn(async (c: unknown) => c), choose: jest.fn(async () => undefined), idFor: jest.fn(async () => undefined) },
    users: { exists: jest.fn(async () => true) },
    config: { timezone: 'UTC' },
    hooks: { check: jest.fn(async () => problems), saved: jest.fn() },
  };
  const writes = new LinkedItemWrites(
    KIND,
    reads as unknown as LinkedItemReads<LinkedItemEntity>,
    parts as unknown as Pick<LinkedItemsParts<LinkedItemEntity>, 'repo' | 'posts' | 'media' | 'users' | 'config' | 'hooks' | 'unitOfWork'>,
  );
  return { writes, repo, unitOfWork, changes, posts: parts.posts };
}

const input = (fields: Record<string, unknown>) => Object.assign(new NamedFieldsDto(), fields);

describe('LinkedItemWrites.create (spec endpoints.md §5.2)', () => {
  it('reuses the item of the same name and description: nothing inserted, no change recorded', async () => {
    const { writes, repo, changes, posts } = setup(item());
    await expect(writes.create(admin, input({ venue: 'Hall', description: 'Big hall' }))).resolves.toEqual({ id: 7, status: 'publish', name: 'Hall' });
    expect(repo.findDuplicate).toHaveBeenCalledWith('Hall', 'Big hall', expect.anything(), expect.any(String), TX);
    expect(posts.allocate).not.toHaveBeenCalled();
    expect(repo.insert).not.toHaveBeenCalled();
    expect(changes.record).not.toHaveBeenCalled();
  });

  it('creates a new item under a slug from its name when there is no duplicate, and records it', async () => {
    const { writes, repo, changes } = setup(null);
    await expect(writes.create(admin, input({ venue: 'New Hall' }))).resolves.toEqual({ id: 50, status: 'publish', name: 'New Hall' });
    expect(repo.lockName).toHaveBeenCalledTimes(1);
    expect(repo.insert).toHaveBeenCalledWith(expect.objectContaining({ id: 50, name: 'New Hall', slug: 'new-hall', authorId: 1 }), TX);
    expect(changes.record).toHaveBeenCalledWith('venue', 50);
  });

  it('scales the status to what the caller may do (§3): contributors get pending or draft', async () => {
    const status = async (actor: Actor, requested?: string) => {
      const { writes, repo } = setup(null);
      await writes.create(actor, input({ venue: 'Hall', ...(requested ? { status: requested } : {}) }));
      return (repo.insert.mock.calls[0] as unknown as [LinkedItemEntity])[0].status;
    };
    await expect(status(contributor, 'publish')).resolves.toBe('pending');
    await expect(status(contributor)).resolves.toBe('draft');
    await expect(status(admin)).resolves.toBe('publish');
    await expect(status(admin, 'draft')).resolves.toBe('draft');
  });

  it('looks for duplicates only among the items the creator may read', async () => {
    const own = setup(null);
    await own.writes.create(contributor, input({ venue: 'Hall' }));
    expect(own.repo.findDuplicate.mock.calls[0]).toContainEqual(expect.objectContaining({ ownerId: 3 }));

    const all = setup(null);
    await all.writes.create(editor, input({ venue: 'Hall' }));
    expect(all.repo.findDuplicate.mock.calls[0]).not.toContainEqual(expect.objectContaining({ ownerId: expect.anything() }));
  });

  it('writes the other given fields onto a reused item only when the caller may edit it', async () => {
    const foreign = setup(item({ authorId: 1, phone: '1' }));
    await foreign.writes.create(contributor, input({ venue: 'Hall', description: 'Big hall', phone: '2' }));
    expect(foreign.repo.update).not.toHaveBeenCalled();

    const mine = setup(item({ authorId: 1, phone: '1' }));
    await mine.writes.create(admin, input({ venue: 'Hall', description: 'Big hall', phone: '2' }));
    expect(mine.repo.update).toHaveBeenCalledWith(expect.objectContaining({ id: 7, phone: '2', status: 'publish', slug: 'hall' }), TX);
  });

  it('refuses a blank name (400, before the permission check) and writes nothing', async () => {
    for (const actor of [admin, null]) {
      const { writes, unitOfWork } = setup(null);
      const err = await refusal(writes.create(actor, input({ venue: '  ' })));
      expect(err).toMatchObject({
        code: 'rest_invalid_param',
        status: 400,
        data: expect.objectContaining({ params: expect.objectContaining({ venue: expect.any(String) }) }),
      });
      expect(unitOfWork.run).not.toHaveBeenCalled();
    }
  });

  it("reports a registered extension's refusal with the other parameters and writes nothing", async () => {
    const { writes, unitOfWork } = setup(null, { parking: 'Must be a positive number.' });
    const err = await refusal(writes.create(admin, input({ venue: '' })));
    expect(err).toMatchObject({
      status: 400,
      data: expect.objectContaining({ params: expect.objectContaining({ parking: 'Must be a positive number.', venue: expect.any(String) }) }),
    });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });

  it('refuses an anonymous caller with valid parameters (401) before storage', async () => {
    const { writes, unitOfWork } = setup(null);
    await expect(refusal(writes.create(null, input({ venue: 'Hall' })))).resolves.toMatchObject({ code: 'rest_forbidden', status: 401 });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });
});

describe('LinkedItemWrites nested in event writes and updates', () => {
  it('a nested item that fails a check is one rest_invalid_param naming the kind (§4.4)', async () => {
    const { writes } = setup(null);
    await expect(refusal(writes.prepareCreate(admin, { venue: '   ' }, true, OUTER))).resolves.toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      data: expect.objectContaining({ params: { venue: LINKED_MESSAGE } }),
    });
  });

  it("refuses an update of another author's item by a contributor before storage", async () => {
    const { writes, unitOfWork } = setup(item({ authorId: 1 }));
    await expect(refusal(writes.update(contributor, { id: 7 }, input({ venue: 'Other' })))).resolves.toMatchObject({ code: 'rest_forbidden', status: 403 });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });
});
