// import:tec (spec compat.md, "Import from a live TEC site"): reads a TEC site's REST API and
// writes what it finds through ImportWriter, in link order.
import type { Actor } from '../../common/auth';
import type { ImportKind } from '../imported-record.entity';
import type { ImportReport } from '../import-report';
import { ImportRecordError, ImportSession, ImportWriter } from '../import-writer';
import { foreignInput, RunLimitReached } from '../source-bounds';
import { basicAuthorization, DEFAULT_POLICY, Fetcher, HttpPolicy, JsonReply, ReadBounds, SiteError, TecHttp } from './tec-http';
import { eventInput, digest, itemVersion, Json, LocalLinks, organizerInput, parentsFirst, termInput, venueInput } from './tec-records';
import { candidateRoots, endpoint, fittingKey, originOfGlobalId, TEC_SOURCE, wpCoreRoot } from './tec-url';

export interface TecImportOptions {
  siteUrl: string;
  user?: string;
  password?: string;
  /** Events starting on or after this date (site wall time, as TEC's `start_date` takes it). */
  since?: string;
  /** Events starting on or before this date. */
  to?: string;
  /** The importing user's login (default: the first administrator). */
  as?: string;
  dryRun: boolean;
  policy?: HttpPolicy;
  /**
   * Read the whole site before writing anything (sources.md §3: a run that cannot read its
   * source writes nothing); the command writes page by page as it reads instead.
   */
  readFirst?: boolean;
  /** The status of every event and item written (default: the source's own). */
  status?: string;
  /** Local category ids added to every event written. */
  categories?: number[];
  /** Write everything as the importing user instead of mapping the source's authors by login. */
  ownAuthor?: boolean;
  /** How URLs are read (default: Node's fetch). */
  fetcher?: Fetcher;
  /** The run's part in each write (a source's run: sources.md §3–4). */
  session?: ImportSession;
  /** What reading may cost: bytes per answer (and per run), a deadline. */
  bounds?: ReadBounds;
  /** The most pages read of one list, and records of one list (a source's run); unbounded by default. */
  lists?: { maxPages: number; maxRecords: number; settings: { pages: string; records: string } };
}

const PER_PAGE = 50;
/** With credentials, the list `status` values that bring unpublished items too (TEC takes a list). */
const ALL_STATUSES = 'publish,future,draft,pending,private';
/** Events "from the beginning" (spec compat.md); TEC has no open upper bound, so a far one. */
const FIRST_START = '1971-01-01';
const LAST_END = '2999-12-31 23:59:59';

/** A list's records by collection key: `events`, `venues`, `organizers`, `categories`, `tags`. */
type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/**
 * One run of import:tec. `out` gets retries and notes; the report counts and shows failures.
 * Throws SiteError when the site cannot be used (exit 2); returns normally otherwise.
 */
export class TecImporter {
  private readonly http: TecHttp;
  private readonly credentials: boolean;
  private root = '';
  /** The origin's host as its global ids name it: the prefix of its terms' keys (sources.md §4). */
  private origin = '';
  private actor!: Actor;
  /** Source → local ids decided in this run (and, for records unchanged, found in the mapping). */
  private readonly local = new Map<string, number>();
  /** Source author id → local user id (undefined: the importing user). */
  private readonly authors = new Map<string, number | undefined>();

  constructor(
    private readonly writer: ImportWriter,
    private readonly report: ImportReport,
    private readonly opts: TecImportOptions,
    private readonly note: (line: string) => void,
  ) {
    this.credentials = opts.user !== undefined && opts.password !== undefined;
    const authorization = this.credentials ? basicAuthorization(opts.user!, opts.password!) : undefined;
    this.http = new TecHttp(
      authorization,
      opts.policy ?? DEFAULT_POLICY,
      (url, why, delay) => note(`retrying ${url} in ${(delay / 1000).toFixed(1)} s: ${why}`),
      opts.fetcher,
      opts.bounds,
    );
  }

  /** The API root in use (after run() found it). */
  get apiRoot(): string {
    return this.root;
  }

  async run(): Promise<void> {
    const probe = await this.findRoot();
    this.root = probe.root;
    this.origin = await this.findOrigin(probe.first);
    this.actor = await this.writer.importingUser(this.opts.as).catch((err: unknown) => {
      throw new SiteError(err instanceof Error ? err.message : String(err));
    });
    // Categories and tags are read whole (parents before children); venues, organizers and
    // events are written a page at a time as they are read, so an interrupted run has kept
    // what it wrote, and the next one goes past it as unchanged.
    const status: Record<string, string> = this.credentials ? { status: ALL_STATUSES } : {};
    const window = { start_date: this.opts.since ?? FIRST_START, end_date: this.opts.to ?? LAST_END };
    const categories = parentsFirst(await this.readAll('categories', { hide_empty: 'false' }));
    const tags = await this.readAll('tags', { hide_empty: 'false' });
    const lists = {
      venues: this.pages('venues', status),
      organizers: this.pages('organizers', status),
      events: this.pages('events', { ...status, ...window }),
    };
    if (this.opts.readFirst) for (const key of ['venues', 'organizers', 'events'] as const) lists[key] = await readWhole(lists[key]);
    await this.terms('category', categories);
    await this.terms('tag', tags);
    for await (const { items, total } of lists.venues) await this.items('venue', items, total, venueInput);
    for await (const { items, total } of lists.organizers) await this.items('organizer', items, total, organizerInput);
    for await (const { items, total } of lists.events) await this.events(items, total);
    this.report.end();
  }

  // ---------------------------------------------------------------- reading

  /**
   * The first candidate root that answers an event list like TEC does, with the first event of
   * that list (if any); a SiteError when none does.
   */
  private async findRoot(): Promise<{ root: string; first: Json | undefined }> {
    const tried: string[] = [];
    for (const root of candidateRoots(this.opts.siteUrl)) {
      let reply: JsonReply;
      try {
        reply = await this.http.getJson(endpoint(root, 'events', { per_page: 1, start_date: FIRST_START }));
      } catch (err) {
        // Unreachable there (after the retries), or redirected somewhere that is: the next form may answer.
        if (!(err instanceof SiteError)) throw err;
        tried.push(`${root} (${err.message})`);
        continue;
      }
      if (reply.status === 401 || reply.status === 403) {
        throw new SiteError(`${root}: the site refused the credentials (HTTP ${reply.status}${messageOf(reply.body)}).`);
      }
      if (reply.status === 200 && isList(reply.body, 'events')) return { root, first: ((reply.body as Json).events as Json[])[0] };
      tried.push(`${root} (HTTP ${reply.status})`);
    }
    throw new SiteError(`No TEC REST API (tribe/events/v1) answers at ${this.opts.siteUrl}; tried ${tried.join(', ')}.`);
  }

  /**
   * The origin's name for term keys: the host of its records' global ids (the first event's, else
   * the first venue's or organizer's), else the API root's host — the same site through a proxy
   * or another scheme names itself the same way.
   */
  private async findOrigin(firstEvent: Json | undefined): Promise<string> {
    const status: Record<string, string> = this.credentials ? { status: ALL_STATUSES } : {};
    let origin = originOfGlobalId(firstEvent?.global_id);
    for (const collection of ['venues', 'organizers'] as const) {
      if (origin) break;
      const first = (await this.pages(collection, status, 1).next()).value;
      origin = originOfGlobalId(first?.items[0]?.global_id);
    }
    return origin ?? new URL(this.root).hostname.toLowerCase();
  }

  /** Every record of a list. */
  private async readAll(collection: Collection, params: Record<string, string>): Promise<Json[]> {
    const all: Json[] = [];
    for await (const { items } of this.pages(collection, params)) all.push(...items);
    return all;
  }

  /**
   * The pages of a list at per_page=50, by page number until the last page (total_pages), an
   * empty one, or the 404/400 TEC answers past the end. `total`: the list's record count. A list
   * that ends before the last page its first page declared was not read whole: a SiteError, so
   * that a run that missed records cannot take them for gone (sources.md §4). A list longer than
   * `lists` allows is refused, before its pages are read when its first page says so.
   */
  private async *pages(collection: Collection, params: Record<string, string>, perPage = PER_PAGE): AsyncGenerator<{ items: Json[]; total: number }> {
    const limits = this.opts.lists;
    let declared = 0;
    let declaredRecords = 0;
    let records = 0;
    for (let page = 1; ; page++) {
      const url = endpoint(this.root, collection, { ...params, per_page: perPage, page });
      if (limits && page > limits.maxPages)
        throw new SiteError(`${collection}: more than ${limits.maxPages} pages, the most a run reads of a list (${limits.settings.pages})`);
      const reply = await this.http.getJson(url);
      if (page > 1 && (reply.status === 404 || reply.status === 400)) {
        if (page <= declared)
          throw new SiteError(`${url}: HTTP ${reply.status} on page ${page} of the ${declared} the site declared; ${collection} not read whole`);
        return;
      }
      if (reply.status === 401 || reply.status === 403)
        throw new SiteError(`${url}: the site refused the credentials (HTTP ${reply.status}${messageOf(reply.body)}).`);
      if (reply.status !== 200 || !isList(reply.body, collection)) {
        throw new SiteError(`${url}: HTTP ${reply.status}${messageOf(reply.body)}; expected a list of ${collection}.`);
      }
      const body = reply.body as Json;
      const items = body[collection] as Json[];
      const total = Number(body.total ?? reply.headers.get('x-wp-total') ?? items.length);
      const totalPages = Number(body.total_pages ?? reply.headers.get('x-wp-totalpages') ?? 0);
      if (page === 1) {
        if (Number.isFinite(totalPages) && totalPages > 0) declared = totalPages;
        if (Number.isFinite(total) && total > 0) declaredRecords = total;
      }
      if (limits && perPage === PER_PAGE && declared > limits.maxPages)
        throw new SiteError(
          `${collection}: the site declares ${declared} pages, more than the ${limits.maxPages} a run reads of a list (${limits.settings.pages})`,
        );
      records += items.length;
      if (limits && records > limits.maxRecords)
        throw new SiteError(`${collection}: more than ${limits.maxRecords} records, the most a run reads of a list (${limits.settings.records})`);
      if (items.length > 0) yield { items, total };
      if (items.length === 0 || (totalPages > 0 && page >= totalPages) || (totalPages === 0 && items.length < perPage)) {
        if (page < declared) throw new SiteError(`${url}: the list ended at page ${page} of the ${declared} the site declared; ${collection} not read whole`);
        if (records < declaredRecords)
          throw new SiteError(
            `${url}: the list ended at page ${page} of the ${declared} the site declared with ${records} of its ${declaredRecords} ${collection}; not read whole`,
          );
        return;
      }
    }
  }

  /** The local user for a source author: the login WordPress names for that id when it exists here. */
  private async authorOf(sourceAuthor: unknown): Promise<number | undefined> {
    if (this.opts.ownAuthor) return undefined;
    const id = typeof sourceAuthor === 'string' || typeof sourceAuthor === 'number' ? String(sourceAuthor) : '';
    if (!/^\d+$/.test(id)) return undefined;
    if (this.authors.has(id)) return this.authors.get(id);
    let local: number | undefined;
    const core = wpCoreRoot(this.root);
    if (core) {
      try {
        const reply = await this.http.getJson(endpoint(core, `users/${id}`));
        const slug = reply.status === 200 && reply.body && typeof reply.body === 'object' ? (reply.body as Json).slug : undefined;
        if (typeof slug === 'string') local = (await this.writer.userByLogin(slug))?.id;
      } catch (err) {
        if (!(err instanceof SiteError)) throw err; // the users route is optional: without it, the importing user
      }
    }
    this.authors.set(id, local);
    return local;
  }

  // ---------------------------------------------------------------- writing

  private async terms(kind: 'category' | 'tag', list: Json[]): Promise<void> {
    this.report.begin(kind, list.length);
    for (const src of list) {
      const sourceParent = kind === 'category' && typeof src.parent === 'number' ? src.parent : 0;
      const parent = kind === 'category' ? (sourceParent === 0 ? 0 : (this.local.get(`${kind}:${sourceParent}`) ?? 0)) : undefined;
      const input = termInput(src, parent);
      const what = `${kind} ${String(src.id)} "${String(src.name)}"`;
      await this.put(kind, String(src.id), what, digest([input, sourceParent]).slice(0, 64), input, undefined, fittingKey(`${this.origin}#${String(src.id)}`));
    }
  }

  /** One page of venues or organizers; the first page starts the kind's progress (`total` records). */
  private async items(kind: 'venue' | 'organizer', list: Json[], total: number, toInput: (src: Json, author: number | undefined) => Json): Promise<void> {
    this.report.begin(kind, total);
    for (const src of list) await this.item(kind, src, toInput);
  }

  private async item(kind: 'venue' | 'organizer', src: Json, toInput: (src: Json, author: number | undefined) => Json): Promise<number | undefined> {
    const input = toInput(src, await this.authorOf(src.author));
    const key = itemKey(src.global_id);
    await this.put(
      kind,
      key,
      `${kind} ${String(src.global_id)} "${String(src[kind])}"`,
      itemVersion(src.modified_utc, input.author ?? null),
      input,
      String(src.modified_utc),
    );
    return this.local.get(`${kind}:${key}`);
  }

  /** One page of events; the first page starts the progress (`total` events). */
  private async events(list: Json[], total: number): Promise<void> {
    this.report.begin('event', total);
    const links: LocalLinks = {
      venue: (g) => this.local.get(`venue:${itemKey(g)}`),
      organizer: (g) => this.local.get(`organizer:${itemKey(g)}`),
      term: (taxonomy, id) => this.local.get(`${taxonomy}:${id}`),
    };
    for (const src of list) {
      await this.linkedOnlyHere(src);
      const { input, missing } = eventInput(src, links, await this.authorOf(src.author));
      if (this.opts.categories?.length) input.categories = [...new Set([...((input.categories as number[] | undefined) ?? []), ...this.opts.categories])];
      const key = itemKey(src.global_id);
      const what = `event ${String(src.global_id)} "${String(src.title)}"`;
      // Links to records that could not be imported are left out, and said.
      if (!this.opts.dryRun) for (const m of missing) this.note(`${what}: its ${m} was not imported; the event is imported without it`);
      const version = itemVersion(src.modified_utc, [input.venue, input.organizer, input.categories, input.tags, input.author ?? null]);
      await this.put('event', key, what, version, input, String(src.modified_utc), key, this.opts.status);
    }
  }

  /**
   * A venue or organizer an event embeds that the lists did not give (not readable there, e.g.
   * without credentials) is imported from the embedded copy, unless it is in the source's
   * trash: an event cannot link a trashed item here (compatibility.md).
   */
  private async linkedOnlyHere(src: Json): Promise<void> {
    const embedded: ['venue' | 'organizer', Json][] = [];
    if (src.venue && typeof src.venue === 'object' && !Array.isArray(src.venue)) embedded.push(['venue', src.venue as Json]);
    if (Array.isArray(src.organizer)) for (const o of src.organizer) embedded.push(['organizer', o as Json]);
    for (const [kind, item] of embedded) {
      if (typeof item.global_id !== 'string' || this.local.has(`${kind}:${itemKey(item.global_id)}`) || item.status === 'trash') continue;
      await this.item(kind, item, kind === 'venue' ? venueInput : organizerInput);
    }
  }

  /**
   * One record through ImportWriter.put, counted; a refusal is a failed record, said with the
   * record. `key`: the record's key in this run; `stored`: its key in the mapping (default `key`).
   */
  private async put(
    kind: ImportKind,
    key: string,
    what: string,
    version: string,
    input: Json,
    modifiedUtc?: string,
    stored = key,
    createStatus?: string,
  ): Promise<void> {
    try {
      const out = await this.writer.put(this.actor, { source: TEC_SOURCE, kind, key: stored, version }, foreignInput(kind, input), {
        dryRun: this.opts.dryRun,
        session: this.opts.session,
        createStatus,
        modifiedUtc: modifiedUtc && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(modifiedUtc) ? modifiedUtc : undefined,
      });
      if (out.localId > 0) this.local.set(`${kind}:${key}`, out.localId);
      this.report.count(kind, out.result);
    } catch (err) {
      if (err instanceof RunLimitReached || (!(err instanceof ImportRecordError) && !(err instanceof Error))) throw err;
      this.report.fail(kind, what, err.message);
    }
  }
}

/** A venue's, organizer's or event's key: its global id, as the origin names it (lower case; long ones digested). */
function itemKey(globalId: unknown): string {
  return fittingKey(String(globalId).toLowerCase());
}

/** Every page of a list, read before any is used. */
async function readWhole<T>(pages: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const all: T[] = [];
  for await (const page of pages) all.push(page);
  return (async function* () {
    yield* all;
  })();
}

function isList(body: unknown, key: string): boolean {
  return body !== null && typeof body === 'object' && Array.isArray((body as Json)[key]);
}

function messageOf(body: unknown): string {
  return body && typeof body === 'object' && typeof (body as Json).message === 'string' ? `: ${(body as Json).message as string}` : '';
}
