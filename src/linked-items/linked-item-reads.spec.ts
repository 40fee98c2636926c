import type { Actor } from '../common/auth';
import type { DataVersion } from '../common/cache/data-version.service';
import { ReadModel } from '../common/cache/read-model';
import { refusal } from '../common/errors/testing/refusal';
import { listedHooks } from '../../test/support/hooks';
import { hookKind } from '../common/feature/hooks';
import { type ListCondition, type ListHook, ListHooks } from '../common/pagination';
import type { AppConfig } from '../config/app-config';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { OUTER } from '../database/tx';
import { LinkedItemReads } from './linked-item-reads';
import { type LinkedItemEntity, type LinkedItemErrorCodes, linkedItemErrors, type LinkedItemListFilters } from './linked-items';
import type { ListLinkedItemsQueryDto } from './linked-items.dto';
import type { LinkedItemsParts, LinkedKind } from './linked-kind';
import { CacheShares } from '../common/cache/cache-shares';
import { FEATURES } from '../features';

// The reads of venues and organizers without HTTP or a database: a fake
// repository answering from an array, fake posts, media and hooks, and a real read model
// over a fake data version, so that what is cached, and what is not, shows.

const admin: Actor = { id: 1, login: 'ad', role: 'administrator' };
const author: Actor = { id: 3, login: 'au', role: 'author' };
const PAST = '2020-01-01 00:00:00';
const AHEAD = '2099-01-01 00:00:00';

const row = (id: number, over: Partial<LinkedItemEntity> = {}): LinkedItemEntity =>
  ({ id, authorId: 1, status: 'publish', dateUtc: PAST, name: `Hall ${id}`, slug: `hall-${id}`, imageId: null, ...over }) as LinkedItemEntity;

const KIND = {
  type: 'venue',
  collection: 'venues',
  errors: linkedItemErrors(
    'venue',
    Object.fromEntries(
      (['notAccessible', 'inTrash', 'pageNotFound', 'couldNotCreate', 'couldNotUpdate', 'couldNotDelete'] as const).map((k) => [k, `venue-${k}`]),
    ) as unknown as LinkedItemErrorCodes,
  ),
  // Enough of a representation to see what was presented, and how.
  present: (item: LinkedItemEntity, ctx: { jsonLd: boolean; nowUtc: string }) => ({ id: item.id, status: item.status, ...(ctx.jsonLd ? { json_ld: {} } : {}) }),
} as unknown as LinkedKind<LinkedItemEntity>;

function setup(items: LinkedItemEntity[]) {
  const byId = (ids: number[]) => items.filter((i) => ids.includes(i.id));
  const repo = {
    findById: jest.fn(async (id: number) => items.find((i) => i.id === id) ?? null),
    findBySlug: jest.fn(async (slug: string) => items.find((i) => i.slug === slug) ?? null),
    findByIds: jest.fn(async (ids: number[]) => byId(ids)),
    findLive: jest.fn(async (ids: number[], _reader: unknown, _lock: boolean) => byId(ids).filter((i) => i.status !== 'trash')),
    existingIds: jest.fn(async (ids: number[]) => new Set(byId(ids).map((i) => i.id))),
    count: jest.fn(async (_f: LinkedItemListFilters) => items.length),
    pageIds: jest.fn(async (_f: LinkedItemListFilters, offset: number, limit: number) => items.slice(offset, offset + limit).map((i) => i.id)),
  };
  const posts = { isOfType: jest.fn(async (id: number, type: string) => type === 'event' && id === 500) };
  const media = { present: jest.fn(async () => new Map()) };
  // No hook in the app: nothing to present, and a real, empty list of list hooks.
  const listKind = hookKind<ListHook<ListCondition>>('venue list');
  const hooks = { present: jest.fn(async () => new Map()), lists: new ListHooks(listedHooks(listKind), listKind) };
  const config = { baseUrl: 'http://cal.test', timezone: 'UTC', cacheMb: 8 } as AppConfig;
  const version = { fresh: () => '1', current: async () => '1' } as unknown as DataVersion;
  const parts = { repo, posts, media, hooks, config, readModel: new ReadModel(version, config, CacheShares.of(FEATURES)) };
  const reads = new LinkedItemReads(
    KIND,
    parts as unknown as Pick<LinkedItemsParts<LinkedItemEntity>, 'repo' | 'posts' | 'media' | 'config' | 'hooks' | 'readModel'>,
  );
  return { reads, repo, posts };
}

const listQuery = (q: Partial<ListLinkedItemsQueryDto> = {}) => q as ListLinkedItemsQueryDto;
const ids = (body: object) => (JSON.parse(Buffer.from((body as { bytes: Buffer }).bytes).toString()) as { venues: { id: number }[] }).venues.map((v) => v.id);

describe('LinkedItemReads.get (spec endpoints.md §5.3 GET)', () => {
  it('an unknown id or slug is a parameter error naming how the item was asked for', async () => {
    const { reads } = setup([]);
    expect(await refusal(reads.get(admin, { id: 9 }))).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { id: expect.any(String) } } });
    expect(await refusal(reads.get(admin, { slug: 'nowhere' }))).toMatchObject({ code: 'rest_invalid_param', data: { params: { slug: expect.any(String) } } });
  });

  it("someone else's draft is the kind's 403 for an author and for anonymous callers alike", async () => {
    const { reads } = setup([row(7, { status: 'draft', authorId: 1 })]);
    expect(await refusal(reads.get(author, { id: 7 }))).toMatchObject({ code: 'venue-notAccessible', status: 403 });
    expect(await refusal(reads.get(null, { slug: 'hall-7' }))).toMatchObject({ code: 'venue-notAccessible', status: 403 });
    expect(await reads.get(admin, { id: 7 })).toEqual({ id: 7, status: 'draft', json_ld: {} });
  });

  it('a scheduled item past its date reads as published, to anyone', async () => {
    const { reads } = setup([row(7, { status: 'future', dateUtc: PAST })]);
    expect(await reads.get(null, { id: 7 })).toMatchObject({ id: 7 });
    const ahead = setup([row(8, { status: 'future', dateUtc: AHEAD })]);
    expect(await refusal(ahead.reads.get(null, { id: 8 }))).toMatchObject({ status: 403 });
  });
});

describe('LinkedItemReads.list (spec endpoints.md §5.1)', () => {
  it('reports every invalid parameter in one 400, before any list query', async () => {
    const { reads, repo } = setup([row(1)]);
    const err = await refusal(reads.list(null, listQuery({ status: 'draft', event: 501, modified_after: 'soon' }), {}));
    expect(err).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    expect(Object.keys((err.data as { params: object }).params).sort()).toEqual(['event', 'modified_after', 'status']);
    expect(repo.count).not.toHaveBeenCalled();
  });

  it('hands the repository the caller’s visibility, the search fragments and the upcoming statuses it may see', async () => {
    const { reads, repo } = setup([row(1), row(2)]);
    await reads.list(author, listQuery({ search: 'france, ile de', event: 500, only_with_upcoming: true }), {});
    const filters = repo.count.mock.calls[0][0];
    expect(filters).toMatchObject({ search: ['france', 'ile', 'de'], eventId: 500, upcomingStatuses: ['publish'], visibility: { ownerId: author.id } });
    expect(filters.visibility.statuses).not.toContain('trash');
    await reads.list(admin, listQuery({ only_with_upcoming: true }), {});
    const editorFilters = repo.count.mock.calls[1][0];
    expect(editorFilters.upcomingStatuses).toEqual(['publish', 'private']);
    expect(editorFilters.visibility).not.toHaveProperty('ownerId');
  });

  it('pages through the pipeline, and a page past the last is the kind’s 404', async () => {
    const { reads } = setup([row(1), row(2), row(3)]);
    const first = await reads.list(null, listQuery({ per_page: 2 }), {});
    expect([first.total, first.totalPages]).toEqual([3, 2]);
    expect(ids(first.body)).toEqual([1, 2]);
    expect(ids((await reads.list(null, listQuery({ page: 2, per_page: 2 }), {})).body)).toEqual([3]);
    expect(await refusal(reads.list(null, listQuery({ page: 3, per_page: 2 }), {}))).toMatchObject({ code: 'venue-pageNotFound', status: 404 });
  });
});

describe('LinkedItemReads: what event reads and writes use', () => {
  it('embed without JSON-LD presents an item once until the data changes; a scheduled one every time', async () => {
    const { reads, repo } = setup([row(1), row(2, { status: 'future', dateUtc: AHEAD })]);
    await reads.embed([1, 2], { jsonLd: false });
    await reads.embed([1, 2], { jsonLd: false });
    expect(repo.findByIds.mock.calls).toEqual([[[1, 2]], [[2]]]);
  });

  it('embed with JSON-LD for a caller adds it only to the items that caller may read', async () => {
    const { reads } = setup([row(1), row(2, { status: 'draft' })]);
    const embedded = await reads.embed([1, 2], { jsonLd: true, actor: null });
    expect(embedded.get(1)).toHaveProperty('json_ld');
    expect(embedded.get(2)).not.toHaveProperty('json_ld');
  });

  it('linkableIds keeps the live items the caller may read, and locks them only inside a write', async () => {
    const { reads, repo } = setup([row(1), row(2, { status: 'trash' }), row(3, { status: 'draft' })]);
    expect([...(await reads.linkableIds(author, [1, 2, 3], OUTER))]).toEqual([1]);
    expect(repo.findLive).toHaveBeenLastCalledWith([1, 2, 3], OUTER, false);
    const inWrite = await fakeUnitOfWork().run(async (tx) => reads.linkableIds(admin, [1, 2, 3], tx));
    expect([...inWrite]).toEqual([1, 3]);
    expect(repo.findLive.mock.lastCall?.[2]).toBe(true);
  });

  it('getMany leaves out what the caller may not read', async () => {
    const { reads } = setup([row(1), row(2, { status: 'private' })]);
    expect([...(await reads.getMany(null, [1, 2])).keys()]).toEqual([1]);
    expect([...(await reads.getMany(admin, [1, 2])).keys()]).toEqual([1, 2]);
  });
});
