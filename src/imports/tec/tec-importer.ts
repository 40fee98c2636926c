// import:tec (spec compat.md, "Import from a live TEC site"): reads a TEC site's REST API and
// writes what it finds through ImportWriter, in link order.
import type { Actor } from '../../common/auth';
import type { ImportKind } from '../imported-record.entity';
import type { ImportReport } from '../import-report';
import { ImportRecordError, ImportWriter } from '../import-writer';
import { basicAuthorization, DEFAULT_POLICY, HttpPolicy, JsonReply, SiteError, TecHttp } from './tec-http';
import { eventInput, digest, itemVersion, Json, LocalLinks, organizerInput, parentsFirst, termInput, venueInput } from './tec-records';
import { candidateRoots, endpoint, sourceName, wpCoreRoot } from './tec-url';

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
  private source = '';
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
    this.http = new TecHttp(authorization, opts.policy ?? DEFAULT_POLICY, (url, why, delay) =>
      note(`retrying ${url} in ${(delay / 1000).toFixed(1)} s: ${why}`),
    );
  }

  /** The API root in use (after run() found it). */
  get apiRoot(): string {
    return this.root;
  }

  async run(): Promise<void> {
    this.root = await this.findRoot();
    this.source = sourceName(this.root);
    this.actor = await this.writer.importingUser(this.opts.as).catch((err: unknown) => {
      throw new SiteError(err instanceof Error ? err.message : String(err));
    });
    // Categories and tags are read whole (parents before children); venues, organizers and
    // events are written a page at a time as they are read, so an interrupted run has kept
    // what it wrote, and the next one goes past it as unchanged.
    const status: Record<string, string> = this.credentials ? { status: ALL_STATUSES } : {};
    await this.terms('category', parentsFirst(await this.readAll('categories', { hide_empty: 'false' })));
    await this.terms('tag', await this.readAll('tags', { hide_empty: 'false' }));
    for await (const { items, total } of this.pages('venues', status)) await this.items('venue', items, total, venueInput);
    for await (const { items, total } of this.pages('organizers', status)) await this.items('organizer', items, total, organizerInput);
    const window = { start_date: this.opts.since ?? FIRST_START, end_date: this.opts.to ?? LAST_END };
    for await (const { items, total } of this.pages('events', { ...status, ...window })) await this.events(items, total);
    this.report.end();
  }

  // ---------------------------------------------------------------- reading

  /** The first candidate root that answers an event list like TEC does; a SiteError when none does. */
  private async findRoot(): Promise<string> {
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
      if (reply.status === 200 && isList(reply.body, 'events')) return root;
      tried.push(`${root} (HTTP ${reply.status})`);
    }
    throw new SiteError(`No TEC REST API (tribe/events/v1) answers at ${this.opts.siteUrl}; tried ${tried.join(', ')}.`);
  }

  /** Every record of a list. */
  private async readAll(collection: Collection, params: Record<string, string>): Promise<Json[]> {
    const all: Json[] = [];
    for await (const { items } of this.pages(collection, params)) all.push(...items);
    return all;
  }

  /**
   * The pages of a list at per_page=50, by page number until the last page (total_pages), an
   * empty one, or the 404/400 TEC answers past the end. `total`: the list's record count.
   */
  private async *pages(collection: Collection, params: Record<string, string>): AsyncGenerator<{ items: Json[]; total: number }> {
    for (let page = 1; ; page++) {
      const url = endpoint(this.root, collection, { ...params, per_page: PER_PAGE, page });
      const reply = await this.http.getJson(url);
      if (page > 1 && (reply.status === 404 || reply.status === 400)) return;
      if (reply.status === 401 || reply.status === 403)
        throw new SiteError(`${url}: the site refused the credentials (HTTP ${reply.status}${messageOf(reply.body)}).`);
      if (reply.status !== 200 || !isList(reply.body, collection)) {
        throw new SiteError(`${url}: HTTP ${reply.status}${messageOf(reply.body)}; expected a list of ${collection}.`);
      }
      const body = reply.body as Json;
      const items = body[collection] as Json[];
      const total = Number(body.total ?? reply.headers.get('x-wp-total') ?? items.length);
      const totalPages = Number(body.total_pages ?? reply.headers.get('x-wp-totalpages') ?? 0);
      if (items.length > 0) yield { items, total };
      if (items.length === 0 || (totalPages > 0 && page >= totalPages) || (totalPages === 0 && items.length < PER_PAGE)) return;
    }
  }

  /** The local user for a source author: the login WordPress names for that id when it exists here. */
  private async authorOf(sourceAuthor: unknown): Promise<number | undefined> {
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
      await this.put(kind, String(src.id), `${kind} ${String(src.id)} "${String(src.name)}"`, digest([input, sourceParent]).slice(0, 64), input);
    }
  }

  /** One page of venues or organizers; the first page starts the kind's progress (`total` records). */
  private async items(kind: 'venue' | 'organizer', list: Json[], total: number, toInput: (src: Json, author: number | undefined) => Json): Promise<void> {
    this.report.begin(kind, total);
    for (const src of list) await this.item(kind, src, toInput);
  }

  private async item(kind: 'venue' | 'organizer', src: Json, toInput: (src: Json, author: number | undefined) => Json): Promise<number | undefined> {
    const input = toInput(src, await this.authorOf(src.author));
    const key = String(src.global_id);
    await this.put(kind, key, `${kind} ${key} "${String(src[kind])}"`, itemVersion(src.modified_utc, input.author ?? null), input, String(src.modified_utc));
    return this.local.get(`${kind}:${key}`);
  }

  /** One page of events; the first page starts the progress (`total` events). */
  private async events(list: Json[], total: number): Promise<void> {
    this.report.begin('event', total);
    const links: LocalLinks = {
      venue: (g) => this.local.get(`venue:${g}`),
      organizer: (g) => this.local.get(`organizer:${g}`),
      term: (taxonomy, id) => this.local.get(`${taxonomy}:${id}`),
    };
    for (const src of list) {
      await this.linkedOnlyHere(src);
      const { input, missing } = eventInput(src, links, await this.authorOf(src.author));
      const key = String(src.global_id);
      const what = `event ${key} "${String(src.title)}"`;
      // Links to records that could not be imported are left out, and said.
      if (!this.opts.dryRun) for (const m of missing) this.note(`${what}: its ${m} was not imported; the event is imported without it`);
      const version = itemVersion(src.modified_utc, [input.venue, input.organizer, input.categories, input.tags, input.author ?? null]);
      await this.put('event', key, what, version, input, String(src.modified_utc));
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
      if (typeof item.global_id !== 'string' || this.local.has(`${kind}:${item.global_id}`) || item.status === 'trash') continue;
      await this.item(kind, item, kind === 'venue' ? venueInput : organizerInput);
    }
  }

  /** One record through ImportWriter.put, counted; a refusal is a failed record, said with the record. */
  private async put(kind: ImportKind, key: string, what: string, version: string, input: Json, modifiedUtc?: string): Promise<void> {
    try {
      const out = await this.writer.put(this.actor, { source: this.source, kind, key, version }, input, {
        dryRun: this.opts.dryRun,
        modifiedUtc: modifiedUtc && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(modifiedUtc) ? modifiedUtc : undefined,
      });
      if (out.localId > 0) this.local.set(`${kind}:${key}`, out.localId);
      this.report.count(kind, out.result);
    } catch (err) {
      if (!(err instanceof ImportRecordError) && !(err instanceof Error)) throw err;
      this.report.fail(kind, what, err.message);
    }
  }
}

function isList(body: unknown, key: string): boolean {
  return body !== null && typeof body === 'object' && Array.isArray((body as Json)[key]);
}

function messageOf(body: unknown): string {
  return body && typeof body === 'object' && typeof (body as Json).message === 'string' ? `: ${(body as Json).message as string}` : '';
}
