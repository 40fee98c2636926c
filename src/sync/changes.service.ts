import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, can, canRead } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { invalidParam } from '../common/errors';
import { currentLinks } from '../common/http/api-links';
import { JsonText, jsonWithRaw } from '../common/pagination';
import { AppConfig } from '../config/app-config';
import { BULK, ChangeKinds } from '../database/change-kinds';
import { EventReader } from '../events';
import { effectiveStatus } from '../items';
import type { LinkedItemReads } from '../linked-items';
import { ORGANIZER_TOKENS, OrganizerEntity } from '../organizers';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenueEntity } from '../venues';
import { ChangesRepository } from './changes.repository';
import { syncTokenExpired } from './sync.errors';
import { decodeSyncToken, encodeSyncToken } from './sync-token';

/** A kind a client may ask for (`types`): a registered change kind (ChangeKinds). */
export type SyncType = string;

/** Each item of a page as its single GET answers `actor`, by id (absent: that GET answers an error). */
type ItemReader = (actor: Actor | null, ids: number[]) => Promise<Map<number, Buffer | unknown>>;

export interface ChangesQuery {
  since?: string;
  perPage: number;
  types: SyncType[];
  embed: boolean;
}

export interface Change {
  type: SyncType;
  id: number;
  action: 'upsert' | 'delete';
  modified_utc?: string;
  rest_url?: string;
}

interface LogRow {
  type: SyncType;
  id: number;
  seq: number;
  firstSeq: number;
  wasPublic: boolean;
  /** The item's state at its latest change; undefined when it is gone. */
  state?: FeedState;
}

/** What the feed needs of an item: who may read it, and its modified time. */
interface FeedState {
  authorId: number;
  status: string;
  modifiedUtc: string;
}

/** How often an instance looks for tombstones past the retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * GET {api_root}/changes (sync.md): the change log from a token, as this caller may see it.
 * The log keeps the latest change per item in commit order (database/change-log.ts); what an
 * item is now decides the action: `upsert` when the caller can read it, else `delete` for a
 * caller who could have seen it since its token (docs/sync.md says how that is judged), else
 * nothing. The next token is the last change read, whether shown or not.
 */
@Injectable()
export class ChangesService {
  private purgedAt = 0;
  /** How the core's kinds are read for `embed` (a kind an extension adds has no reader here: its changes come without `item`). */
  private readonly readers: ReadonlyMap<string, ItemReader>;

  constructor(
    private readonly log: ChangesRepository,
    private readonly config: AppConfig,
    private readonly kinds: ChangeKinds,
    events: EventReader,
    @Inject(VENUE_TOKENS.reads) venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) organizers: LinkedItemReads<OrganizerEntity>,
    taxonomies: TermsService,
  ) {
    this.readers = new Map<string, ItemReader>([
      ['event', (actor, ids) => events.getManyById(actor, ids)],
      ['venue', (actor, ids) => venues.getMany(actor, ids)],
      ['organizer', (actor, ids) => organizers.getMany(actor, ids)],
      ['category', (_actor, ids) => taxonomies.getMany('category', ids)],
      ['tag', (_actor, ids) => taxonomies.getMany('tag', ids)],
    ]);
  }

  /** The kinds of the feed, in their order: the registered change kinds. */
  types(): SyncType[] {
    return this.kinds.types();
  }

  /**
   * `types` as a client asked for them (absent: every kind): each must be a registered kind,
   * else 400 rest_invalid_param (the kinds are known only once the features are composed, so
   * the query's DTO checks only the list's form).
   */
  checkTypes(types: readonly string[] | undefined): SyncType[] {
    if (types === undefined) return this.types();
    if (!types.every((t) => this.kinds.has(t))) throw invalidParam('types', `Must be a list of ${this.types().join(', ')}.`);
    return [...types];
  }

  /** The item's URL in the API: `/{collection}/{id}` of its kind. */
  restPath(type: SyncType, id: number): string {
    return `/${this.kinds.get(type)?.collection ?? type}/${id}`;
  }

  async changes(actor: Actor | null, q: ChangesQuery): Promise<{ body: JsonText; hasMore: boolean }> {
    await this.purgeWhenDue();
    // The counter before the log: every change up to it has committed (database/change-log.ts).
    const counter = await this.log.counter();
    const since = this.startingPoint(q.since, counter);
    const rows = await this.readLog(since ?? 0, q.types, q.perPage + 1);
    const hasMore = rows.length > q.perPage;
    const page = rows.slice(0, q.perPage);
    const links = currentLinks(this.config.baseUrl);
    const shown = page.filter((row) => row.state !== undefined && this.readable(actor, row.type, row.state));
    // With `embed`, every item shown is read at once, as its single GET answers this caller.
    const items = q.embed ? await this.items(actor, shown) : undefined;
    // Without items the page is one object, stringified at once; with them, each item's JSON text goes in as it is.
    const changes: (Change | Buffer)[] = [];
    for (const row of page) {
      const key = `${row.type}:${row.id}`;
      const state = row.state;
      const removal: Change = { type: row.type, id: row.id, action: 'delete' };
      if (state !== undefined && this.readable(actor, row.type, state)) {
        const change: Change = { type: row.type, id: row.id, action: 'upsert' };
        if (state.modifiedUtc !== '') change.modified_utc = state.modifiedUtc;
        change.rest_url = links.href(this.restPath(row.type, row.id));
        // A kind without a reader here (an extension's) is shown without `item`.
        if (items === undefined || !this.readers.has(row.type)) changes.push(change);
        else {
          // Its GET answers an error after all (a scheduled item between the two reads): gone for this caller.
          const item = items.get(key);
          if (item !== undefined) changes.push(jsonWithRaw({ ...change }, 'item', item));
          else if (this.toldOfRemoval(actor, row, since, state)) changes.push(removal);
        }
      } else if (this.toldOfRemoval(actor, row, since, state)) {
        changes.push(removal);
      }
    }
    // At the end of the log the token moves to the counter: what was read covers everything up to it.
    const last = Math.max(page.length > 0 ? page[page.length - 1].seq : (since ?? 0), hasMore ? 0 : counter.seq);
    const rest = { next_sync_token: encodeSyncToken(last), has_more: hasMore };
    if (items === undefined) return { body: new JsonText(JSON.stringify({ changes, ...rest })), hasMore };
    const body = JsonText.envelope(
      'changes',
      changes.map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(JSON.stringify(c)))),
      rest,
    );
    return { body, hasMore };
  }

  /**
   * The latest changes this caller may read, newest first (the editing pages' overview): the
   * end of the log walked backwards along its seq index, a few rows past `limit` at a time, the
   * rows the caller cannot read left out, and at most `scan` rows read in all.
   */
  async recent(actor: Actor | null, limit: number, scan = limit * 20): Promise<{ type: SyncType; id: number; modifiedUtc: string }[]> {
    const skipped = [BULK];
    const found: { type: SyncType; id: number; modifiedUtc: string }[] = [];
    let before = Number.MAX_SAFE_INTEGER;
    for (let read = 0; read < scan && found.length < limit;) {
      const batch = limit * 4;
      const rows = await this.log.before(before, skipped, batch);
      const now = nowUtcSql();
      for (const r of rows) {
        if (r.status === null || found.length >= limit) continue;
        const state: FeedState = {
          authorId: Number(r.author_id ?? 0),
          status: r.date_utc === null ? r.status : effectiveStatus(r.status, r.date_utc, now),
          modifiedUtc: r.modified_utc ?? '',
        };
        if (this.readable(actor, r.type, state)) found.push({ type: r.type, id: Number(r.item_id), modifiedUtc: state.modifiedUtc });
      }
      read += rows.length;
      if (rows.length < batch) break;
      before = Number(rows[rows.length - 1].seq);
    }
    return found;
  }

  /**
   * Removes the tombstones (rows of items deleted for good) older than the retention, and
   * remembers the highest seq removed: a token below it may have missed a removal (410). Run by
   * the feed itself, at most once per PURGE_EVERY_MS per instance (any instance may do it); with
   * a retention of 0 days on every read (removals are then kept only until the next read).
   */
  async purgeWhenDue(): Promise<void> {
    if (this.config.syncRetentionDays > 0 && Date.now() - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = Date.now();
    const before = DateTime.utc().minus({ days: this.config.syncRetentionDays }).toFormat('yyyy-MM-dd HH:mm:ss');
    // The tombstones of each kind: its rows in the log whose item's row is gone.
    const kinds = this.kinds.all();
    let top = 0;
    for (const kind of kinds) top = Math.max(top, await this.log.topTombstone(kind, before));
    if (top === 0) return;
    // The mark first: a reader between the two statements is refused a token it could still have used, never the reverse.
    await this.log.markPurged(top);
    for (const kind of kinds) await this.log.deleteTombstones(kind, before, top);
  }

  /** The seq after which to read: null without a token; 400 for a token not ours, 410 for one past the retention. */
  private startingPoint(token: string | undefined, counter: { seq: number; purged: number }): number | null {
    if (token === undefined) return null;
    const seq = decodeSyncToken(token);
    if (seq === null || seq > counter.seq) throw invalidParam('since', 'Must be a sync token from an earlier answer.');
    if (seq < counter.purged) throw syncTokenExpired();
    return seq;
  }

  /**
   * The next `limit` rows after `after`, in seq order, of these types, with the items' states
   * the rows keep (as of each item's latest change, ChangeEntity): no read of the items. The
   * kinds are named by those left out (`NOT IN`), never by an `IN` list: with `type` as a key
   * an engine without statistics reads the primary key (type, item_id) and sorts every row
   * after the token (125 ms at 200,000 rows) instead of walking ux_change_log_seq from the
   * token (0.3 ms).
   */
  private async readLog(after: number, types: SyncType[], limit: number): Promise<LogRow[]> {
    const skipped = [BULK, ...this.kinds.types().filter((t) => !types.includes(t))];
    const rows = await this.log.after(after, skipped, limit);
    const now = nowUtcSql();
    return rows.map((r) => ({
      type: r.type,
      id: Number(r.item_id),
      seq: Number(r.seq),
      firstSeq: Number(r.first_seq),
      wasPublic: Number(r.was_public) === 1 || r.was_public === true,
      state:
        r.status === null
          ? undefined
          : {
              authorId: Number(r.author_id ?? 0),
              // A scheduled item is published once its date has come, as its GET shows it.
              status: r.date_utc === null ? r.status : effectiveStatus(r.status, r.date_utc, now),
              modifiedUtc: r.modified_utc ?? '',
            },
    }));
  }

  /** What the item's single GET shows this caller: trashed items answer an error there, so here they are gone. */
  private readable(actor: Actor | null, type: SyncType, state: FeedState): boolean {
    if (this.kinds.alwaysPublic(type)) return true;
    if (state.status === 'trash') return false;
    return canRead(actor, { authorId: state.authorId, status: state.status, statusBeforeTrash: null });
  }

  /**
   * Is an item the caller cannot read (now) a `delete` for it? Only for a caller with a token
   * from after the item's first change (one that read before could not have seen it), and who
   * could have read it then: the item was public once, or the caller reads others' unpublished
   * items, or it is the caller's own.
   */
  private toldOfRemoval(actor: Actor | null, row: LogRow, since: number | null, state: FeedState | undefined): boolean {
    if (since === null || row.firstSeq > since) return false;
    if (row.wasPublic) return true;
    if (actor === null) return false;
    if (can(actor, 'read_others_unpublished') || can(actor, 'read_private')) return true;
    return state !== undefined && state.authorId === actor.id;
  }

  /**
   * Each item as its single GET answers this caller, as JSON text by `type:id`; absent where
   * that GET answers an error now. One batch per kind (also the webhooks' `data.item`).
   */
  async items(actor: Actor | null, rows: readonly { type: SyncType; id: number }[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    for (const [type, read] of this.readers) {
      const ids = rows.filter((r) => r.type === type).map((r) => r.id);
      if (ids.length === 0) continue;
      const found = await read(actor, ids);
      for (const [id, json] of found) out.set(`${type}:${id}`, Buffer.isBuffer(json) ? json : Buffer.from(JSON.stringify(json)));
    }
    return out;
  }
}
