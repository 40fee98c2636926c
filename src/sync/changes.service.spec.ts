import type { DataSource } from 'typeorm';
import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import type { AppConfig } from '../config/app-config';
import type { EventReader } from '../events';
import type { TermsService } from '../taxonomies';
import { ChangesRepository } from './changes.repository';
import { type ChangesQuery, ChangesService } from './changes.service';
import { decodeSyncToken, encodeSyncToken } from './sync-token';
import { ChangeKinds } from '../database/change-kinds';
import { FEATURES } from '../features';

// The change feed's rules (sync.md) without a database: a fake connection that
// answers the feed's few statements from an in-memory change log, and fake readers of items.
// What is pinned: which rows become `upsert`, `delete` or nothing for which caller, the tokens
// (where the next one points, 400 and 410), paging, `embed` and the purge of old tombstones.

const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const author: Actor = { id: 3, login: 'au', role: 'author' };
const otherAuthor: Actor = { id: 4, login: 'au2', role: 'author' };

interface LogRow {
  type: string;
  item_id: number;
  seq: number;
  first_seq: number;
  was_public: number;
  author_id: number | null;
  status: string | null;
  date_utc: string | null;
  modified_utc: string | null;
}

/** A row of the log; `status: null` is an item deleted for good (a tombstone). */
const logged = (seq: number, over: Partial<LogRow> = {}): LogRow => ({
  type: 'event',
  item_id: seq * 10,
  seq,
  first_seq: seq,
  was_public: 1,
  author_id: 1,
  status: 'publish',
  date_utc: '2020-01-01 00:00:00',
  modified_utc: `2025-01-0${seq} 00:00:00`,
  ...over,
});

function setup(log: LogRow[], counter = { seq: log.length === 0 ? 0 : Math.max(...log.map((r) => r.seq)), purged_seq: 0 }, tombstoneTop: number | null = null) {
  const statements: string[] = [];
  const query = jest.fn(async (sql: string, params: unknown[] = []) => {
    statements.push(sql);
    if (sql.startsWith('SELECT MAX(seq)')) return [{ top: tombstoneTop }];
    if (sql.includes('FROM change_counter')) return [counter];
    if (sql.startsWith('SELECT type, item_id')) {
      const [after, ...skipped] = params as [number, ...string[]];
      const limit = Number(/LIMIT (\d+)/.exec(sql)![1]);
      return log.filter((r) => r.seq > after && !skipped.includes(r.type)).slice(0, limit);
    }
    return [];
  });
  const bodies = (type: string) => jest.fn(async (_actor: Actor | null, ids: number[]) => new Map(ids.map((id) => [id, { type, id }])));
  const events = { getManyById: jest.fn(async (_a: Actor | null, ids: number[]) => new Map(ids.map((id) => [id, Buffer.from(`{"event":${id}}`)]))) };
  const venues = { getMany: bodies('venue') };
  const organizers = { getMany: bodies('organizer') };
  const taxonomies = { getMany: jest.fn(async (type: string, ids: number[]) => new Map(ids.map((id) => [id, { type, id }]))) };
  const config = { baseUrl: 'http://cal.test', syncRetentionDays: 30 } as AppConfig;
  const service = new ChangesService(
    new ChangesRepository({ query } as unknown as DataSource),
    config,
    ChangeKinds.of(FEATURES),
    events as unknown as EventReader,
    venues as never,
    organizers as never,
    taxonomies as unknown as TermsService,
  );
  return { service, statements, events, venues, config };
}

const ALL: ChangesQuery['types'] = ['event', 'venue', 'organizer', 'category', 'tag'];
const q = (over: Partial<ChangesQuery> = {}): ChangesQuery => ({ perPage: 100, types: ALL, embed: false, ...over });

async function feed(service: ChangesService, actor: Actor | null, query: ChangesQuery) {
  const { body, hasMore } = await service.changes(actor, query);
  const json = JSON.parse(body.bytes.toString()) as { changes: Record<string, unknown>[]; next_sync_token: string; has_more: boolean };
  return { ...json, hasMore, next: decodeSyncToken(json.next_sync_token) };
}

describe('ChangesService.changes (sync.md)', () => {
  it('without a token: an upsert for every item the caller can read now, no deletes, and a token at the counter', async () => {
    const { service } = setup(
      [logged(1), logged(2, { status: 'draft', was_public: 0 }), logged(3, { status: 'trash' }), logged(4, { status: null }), logged(5, { type: 'category' })],
      { seq: 7, purged_seq: 0 },
    );
    const page = await feed(service, null, q());
    expect(page.changes).toEqual([
      { type: 'event', id: 10, action: 'upsert', modified_utc: '2025-01-01 00:00:00', rest_url: expect.stringMatching(/\/events\/10$/) },
      { type: 'category', id: 50, action: 'upsert', modified_utc: '2025-01-05 00:00:00', rest_url: expect.stringMatching(/\/categories\/50$/) },
    ]);
    expect([page.next, page.has_more]).toEqual([7, false]);
  });

  it('with a token: a delete for an item the caller could have seen and cannot now, nothing for one it never could', async () => {
    const log = [
      logged(5, { status: 'trash', first_seq: 1 }), // was public: everyone is told
      logged(6, { status: 'trash', was_public: 0, author_id: author.id, first_seq: 1 }), // never public: its author and editors
      logged(7, { status: null, first_seq: 4 }), // first seen after the token: nobody
    ];
    const since = encodeSyncToken(3);
    const actions = async (actor: Actor | null) => (await feed(setup(log).service, actor, q({ since }))).changes.map((c) => `${c.action} ${c.id}`);
    expect(await actions(null)).toEqual(['delete 50']);
    expect(await actions(otherAuthor)).toEqual(['delete 50']);
    expect(await actions(author)).toEqual(['delete 50', 'delete 60']);
    expect(await actions(editor)).toEqual(['delete 50', 'delete 60']);
  });

  it('a scheduled item past its date is published for the feed, as its GET shows it', async () => {
    const { service } = setup([
      logged(1, { status: 'future', date_utc: '2020-01-01 00:00:00' }),
      logged(2, { status: 'future', date_utc: '2099-01-01 00:00:00' }),
    ]);
    expect((await feed(service, null, q())).changes.map((c) => c.id)).toEqual([10]);
  });

  it('pages: one row more than the page tells has_more, and the next token is the last row read, shown or not', async () => {
    const { service } = setup([logged(1), logged(2, { status: 'draft', was_public: 0 }), logged(3)], { seq: 9, purged_seq: 0 });
    const page = await feed(service, null, q({ perPage: 2 }));
    expect(page.changes.map((c) => c.id)).toEqual([10]);
    expect([page.next, page.has_more, page.hasMore]).toEqual([2, true, true]);
  });

  it('names the kinds left out, never those asked for, to the log query', async () => {
    const { service, statements } = setup([logged(1), logged(2, { type: 'venue' })]);
    const page = await feed(service, null, q({ types: ['venue'] }));
    expect(page.changes.map((c) => c.type)).toEqual(['venue']);
    expect(statements.find((s) => s.startsWith('SELECT type, item_id'))).toMatch(/type NOT IN \(\?, \?, \?, \?, \?\)/);
  });

  it('a token that is not ours, or from beyond the counter, is a 400 on `since`; one below the purge mark a 410', async () => {
    const { service } = setup([logged(1)], { seq: 10, purged_seq: 5 });
    for (const since of ['nonsense', encodeSyncToken(11)]) {
      expect(await refusal(service.changes(null, q({ since })))).toMatchObject({
        code: 'rest_invalid_param',
        status: 400,
        data: { params: { since: expect.any(String) } },
      });
    }
    expect(await refusal(service.changes(null, q({ since: encodeSyncToken(4) })))).toMatchObject({ status: 410 });
    expect((await feed(service, null, q({ since: encodeSyncToken(5) }))).changes).toEqual([]);
  });

  it('embed: the items shown are read in one batch per kind, each as its single GET answers the caller', async () => {
    const { service, events, venues } = setup([logged(1), logged(2), logged(3, { type: 'venue' })]);
    const page = await feed(service, editor, q({ embed: true }));
    expect(events.getManyById).toHaveBeenCalledTimes(1);
    expect(events.getManyById).toHaveBeenCalledWith(editor, [10, 20]);
    expect(venues.getMany).toHaveBeenCalledWith(editor, [30]);
    expect(page.changes.map((c) => c.item)).toEqual([{ event: 10 }, { event: 20 }, { type: 'venue', id: 30 }]);
  });

  it('embed: an item whose GET answers an error by now is a delete for a caller who is told of removals', async () => {
    const { service, events } = setup([logged(5, { first_seq: 1 })]);
    events.getManyById.mockResolvedValueOnce(new Map());
    expect((await feed(service, null, q({ embed: true, since: encodeSyncToken(3) }))).changes).toEqual([{ type: 'event', id: 50, action: 'delete' }]);
    events.getManyById.mockResolvedValueOnce(new Map());
    expect((await feed(service, null, q({ embed: true }))).changes).toEqual([]);
  });
});

describe('ChangesService.purgeWhenDue (sync.md retention)', () => {
  it('moves the purge mark before it deletes the tombstones, and only when there are some', async () => {
    const some = setup([], undefined, 8);
    await some.service.purgeWhenDue();
    const writes = some.statements.filter((s) => !s.startsWith('SELECT'));
    expect(writes[0]).toMatch(/^UPDATE change_counter SET purged_seq/);
    expect(writes.slice(1).every((s) => s.startsWith('DELETE FROM change_log'))).toBe(true);
    expect(writes).toHaveLength(6);

    const none = setup([]);
    await none.service.purgeWhenDue();
    expect(none.statements.every((s) => s.startsWith('SELECT'))).toBe(true);
  });

  it('runs once an hour per instance, or on every read with a retention of 0 days', async () => {
    const hourly = setup([]);
    await hourly.service.purgeWhenDue();
    await hourly.service.purgeWhenDue();
    expect(hourly.statements.filter((s) => s.startsWith('SELECT MAX'))).toHaveLength(5);

    const always = setup([]);
    always.config.syncRetentionDays = 0;
    await always.service.purgeWhenDue();
    await always.service.purgeWhenDue();
    expect(always.statements.filter((s) => s.startsWith('SELECT MAX'))).toHaveLength(10);
  });
});
