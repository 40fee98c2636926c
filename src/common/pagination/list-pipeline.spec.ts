import { loadConfig } from '../../config/app-config';
import { FEATURES } from '../../features';
import { CacheShares } from '../cache/cache-shares';
import type { DataVersion } from '../cache/data-version.service';
import { ReadModel } from '../cache/read-model';
import { ListPipeline, ListRequest, PAGE_ID_BLOCK, presentCached } from './list-pipeline';

const fakeVersion = { current: async () => '0.0', fresh: () => '0.0', known: () => '0.0', committed: () => undefined } as unknown as DataVersion;
const readModel = () => new ReadModel(fakeVersion, loadConfig({}), CacheShares.of(FEATURES));

/** A list of `n` items with ids 1…n, recording the queries it was asked. */
function source(n: number) {
  const asked = { count: 0, pageIds: [] as [number, number][] };
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const request = (page: number, perPage: number, extra: Partial<ListRequest> = {}): ListRequest => ({
    page,
    perPage,
    filterKey: 'all',
    count: async () => {
      asked.count += 1;
      return n;
    },
    pageIds: async (offset, limit) => {
      asked.pageIds.push([offset, limit]);
      return ids.slice(offset, offset + limit);
    },
    present: async (wanted) => wanted.map((id) => Buffer.from(JSON.stringify({ id }))),
    params: { page: String(page), per_page: String(perPage) },
    layout: 'items-first',
    ...extra,
  });
  return { asked, request };
}

const json = (page: { body: { bytes: Buffer } }) => JSON.parse(page.body.bytes.toString()) as Record<string, unknown>;

describe('ListPipeline', () => {
  it('answers a page with its items, links and totals, items first', async () => {
    const { request } = source(25);
    const page = await new ListPipeline(readModel(), 'events', 'http://x').answer(request(2, 10));
    expect(page.total).toBe(25);
    expect(page.totalPages).toBe(3);
    const body = json(page);
    expect(Object.keys(body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect((body.events as { id: number }[]).map((e) => e.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(body.rest_url).toBe('http://x/calendar/events/v1/events/?page=2&per_page=10');
    expect(body.next_rest_url).toBe('http://x/calendar/events/v1/events/?page=3&per_page=10');
    expect(body.previous_rest_url).toBe('http://x/calendar/events/v1/events/?per_page=10');
    expect(page.linkHeader).toBe(
      '<http://x/calendar/events/v1/events/?page=3&per_page=10>; rel="next", <http://x/calendar/events/v1/events/?per_page=10>; rel="prev"',
    );
  });

  it('puts rest_url and the totals before the items for terms, and offers a previous page past the end', async () => {
    const { request } = source(3);
    const page = await new ListPipeline(readModel(), 'tags', 'http://x').answer(request(5, 2, { layout: 'totals-first', previousPastEnd: true }));
    const body = json(page);
    expect(Object.keys(body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'previous_rest_url']);
    expect(body.tags).toEqual([]);
  });

  it('answers the error of a page past the last one, when the collection has one', async () => {
    const { request } = source(3);
    const pipeline = new ListPipeline(readModel(), 'venues', 'http://x');
    await expect(pipeline.answer(request(3, 2, { pageNotFound: () => new Error('no such page') }))).rejects.toThrow('no such page');
    // page 1 of an empty list is an empty page, not an error
    await expect(
      new ListPipeline(readModel(), 'organizers', 'http://x').answer(source(0).request(1, 10, { pageNotFound: () => new Error('x') })),
    ).resolves.toMatchObject({
      total: 0,
      totalPages: 0,
    });
  });

  it('counts once per filter set and reads page ids a block at a time', async () => {
    const { asked, request } = source(1000);
    const pipeline = new ListPipeline(readModel(), 'events', 'http://x');
    for (const page of [1, 2, 20, 21]) await pipeline.answer(request(page, 10));
    expect(asked.count).toBe(1);
    // pages 1–20 are one block of PAGE_ID_BLOCK ids; page 21 starts the next
    expect(asked.pageIds).toEqual([
      [0, PAGE_ID_BLOCK],
      [PAGE_ID_BLOCK, PAGE_ID_BLOCK],
    ]);
    const last = json(await pipeline.answer(request(21, 10)));
    expect((last.events as { id: number }[])[0].id).toBe(201);
  });

  it('asks no page ids beyond the total, nor for an offset past any safe integer', async () => {
    const { asked, request } = source(15);
    const pipeline = new ListPipeline(readModel(), 'categories', 'http://x');
    await pipeline.answer(request(1, 10));
    expect(asked.pageIds).toEqual([[0, 15]]);
    await pipeline.answer(request(Number.MAX_SAFE_INTEGER, 50));
    expect(asked.pageIds).toHaveLength(1);
  });
});

describe('presentCached', () => {
  it('presents only the missing items, keeps those it may, and keeps the order of the ids', async () => {
    const cache = readModel().cache<Buffer>('venues.listed');
    const presented: number[][] = [];
    const load = async (missing: number[]) => {
      presented.push(missing);
      return new Map(missing.map((id) => [id, { bytes: Buffer.from(String(id)), keep: id !== 3 }]));
    };
    const text = (items: Buffer[]) => items.map((b) => b.toString());
    expect(text(await presentCached(cache, [1, 2, 3], load))).toEqual(['1', '2', '3']);
    expect(text(await presentCached(cache, [3, 2, 4], load))).toEqual(['3', '2', '4']);
    expect(presented).toEqual([
      [1, 2, 3],
      [3, 4],
    ]);
  });

  it('leaves out ids that vanished', async () => {
    const cache = readModel().cache<Buffer>('organizers.listed');
    const out = await presentCached(cache, [1, 2], async () => new Map([[2, { bytes: Buffer.from('2'), keep: true }]]));
    expect(out.map(String)).toEqual(['2']);
  });
});
