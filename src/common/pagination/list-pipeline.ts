import type { NamedCache, ReadModel } from '../cache/read-model';
import { currentLinks } from '../http/api-links';
import { JsonText, ListPage, pageLinks, totalPages } from './list-page';

/**
 * A collection that lists through the pipeline, as its feature declares it (Feature.listCollections,
 * with its `.totals` and `.page-ids` caches: CacheShares checks them at start).
 */
export type ListedCollection = string;

/** Page ids are read this many at a time, in whole pages (20 pages of 10, 4 of 50, at least one page). */
export const PAGE_ID_BLOCK = 200;

/** One list request, as the feature describes it to the pipeline. */
export interface ListRequest {
  page: number;
  perPage: number;
  /** The filter set, as a cache key: equal keys must mean equal results (while the data does not move). */
  filterKey: string;
  /** How many items match (asked once per filter set and data version). */
  count(): Promise<number>;
  /** Up to `limit` matching ids from `offset`, in list order. */
  pageIds(offset: number, limit: number): Promise<number[]>;
  /** The ids' list items as UTF-8 JSON, in order (ids that vanished are left out). */
  present(ids: number[]): Promise<Buffer[]>;
  /** A page past the last one (page > 1 with no item): events, venues and organizers answer an error. */
  pageNotFound?: () => Error;
  /** The request's parameters as they go into rest_url and its neighbours, in order. */
  params: Record<string, string>;
  /** Terms offer a previous page even past the end; the others only when that page has items. */
  previousPastEnd?: boolean;
  /**
   * `items-first`: `{collection: [...], rest_url, next…, previous…, total, total_pages}` (events,
   * venues, organizers); `totals-first`: `{rest_url, total, total_pages, collection: [...], next…,
   * previous…}` (categories, tags). The orders the reference answers in.
   */
  layout: 'items-first' | 'totals-first';
}

/**
 * The one way a list is answered (spec resources.md §8): count → block of page ids → presented
 * items → envelope → links, with X-TEC-Total / X-TEC-TotalPages from the ListPage. Totals and
 * page-id blocks are cached in the read model per filter set; presented items are the feature's
 * (`presentCached`).
 *
 * Page ids come a block of pages at a time: reaching page N walks the list index past every
 * earlier match anyway, so its neighbours cost little more, and paging on reads no index
 * until the next write.
 */
export class ListPipeline {
  private readonly totals: NamedCache<number>;
  private readonly blocks: NamedCache<number[]>;

  constructor(
    readModel: ReadModel,
    private readonly collection: ListedCollection,
    /** {base_url}: the links are written in the form of the request (common/http/api-links.ts). */
    private readonly baseUrl: string,
  ) {
    this.totals = readModel.cache(`${collection}.totals`);
    this.blocks = readModel.cache(`${collection}.page-ids`);
  }

  async answer(req: ListRequest): Promise<ListPage<JsonText>> {
    const { page, perPage } = req;
    const total = await this.totals.through(req.filterKey, () => req.count());
    const offset = (page - 1) * perPage;
    const ids = Number.isSafeInteger(offset) && offset < total ? await this.pageOfIds(req, total, offset) : [];
    if (ids.length === 0 && page > 1 && req.pageNotFound) throw req.pageNotFound();

    const pages = totalPages(total, perPage);
    // resources.md §8.2: a neighbour link exists iff that page holds at least one item (terms: any previous page)
    const links = pageLinks(currentLinks(this.baseUrl), `/${this.collection}/`, req.params, page, {
      next: page < pages,
      previous: page > 1 && (req.previousPastEnd === true || page - 1 <= pages),
    });
    const items = await req.present(ids);
    const { rest_url, ...neighbours } = links;
    const body =
      req.layout === 'items-first'
        ? JsonText.envelope(this.collection, items, { ...links, total, total_pages: pages })
        : JsonText.envelope(this.collection, items, neighbours, { rest_url, total, total_pages: pages });
    return new ListPage(body, total, pages, { next: links.next_rest_url, previous: links.previous_rest_url });
  }

  /** How many items match a filter set, from the same cache as the lists' totals (a tab's count on the editing pages). */
  total(filterKey: string, count: () => Promise<number>): Promise<number> {
    return this.totals.through(filterKey, count);
  }

  private async pageOfIds(req: ListRequest, total: number, offset: number): Promise<number[]> {
    const pagesPerBlock = Math.max(1, Math.floor(PAGE_ID_BLOCK / req.perPage));
    const blockStart = Math.floor((req.page - 1) / pagesPerBlock) * pagesPerBlock * req.perPage;
    const block = await this.blocks.through(`${req.filterKey}#${req.perPage}#${blockStart}`, () =>
      req.pageIds(blockStart, Math.min(pagesPerBlock * req.perPage, total - blockStart)),
    );
    return block.slice(offset - blockStart, offset - blockStart + req.perPage);
  }
}

/**
 * List items by id from `cache`, presenting only the missing ones (`load` answers them by id,
 * with `keep: false` for an item whose representation may change without a write, such as a
 * scheduled venue). A list item does not depend on the caller, so one presentation serves every
 * reader until the data moves. Items that hold API links (events, terms) are kept per link form:
 * `prefix` is the form's key (ApiLinks.key), empty for ours.
 */
export async function presentCached(
  cache: NamedCache<Buffer>,
  ids: number[],
  load: (missing: number[]) => Promise<Map<number, { bytes: Buffer; keep: boolean }>>,
  prefix = '',
): Promise<Buffer[]> {
  const found = ids.map((id) => cache.get(prefix + id));
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    const generation = cache.mark();
    const fresh = await load(missing);
    for (const [id, item] of fresh) if (item.keep) cache.set(prefix + id, item.bytes, generation);
    ids.forEach((id, i) => (found[i] ??= fresh.get(id)?.bytes));
  }
  return found.filter((bytes): bytes is Buffer => bytes !== undefined);
}
