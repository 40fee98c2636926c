// A sync client that keeps a copy of the calendar through GET /changes alone (sync.md): after a burst of creates, updates, trashes, restores and permanent deletes,
// and while writers run concurrently on several connections, its copy equals a full read.
import { DataSource } from 'typeorm';
import { ChangeKinds } from '../../../src/database/change-kinds';
import { appendChanges, ChangeSet } from '../../../src/database/change-log';
import { makeUsers, uid } from '../../support/api';
import { Change, changePages } from '../../support/changes';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;
const COLLECTIONS = { event: 'events', venue: 'venues', organizer: 'organizers', category: 'categories', tag: 'tags' } as const;

/** The client: a map `type:id` → item, and its token. */
class Mirror {
  readonly items = new Map<string, Json>();
  token: string | undefined;
  reads = 0;

  constructor(
    private readonly t: TestApp,
    private readonly authorization?: string,
  ) {}

  async sync(): Promise<void> {
    for await (const page of changePages(this.t, this.token, this.authorization, { embed: 'true', per_page: '5' })) {
      this.reads++;
      for (const change of page.changes) {
        const key = `${change.type}:${change.id}`;
        if (change.action === 'delete') this.items.delete(key);
        else this.items.set(key, change.item!);
      }
      this.token = page.next_sync_token;
    }
  }
}

/** Every item this caller can read now, by `type:id`, each as its single GET answers it. */
async function fullRead(t: TestApp, authorization?: string): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (const [type, collection] of Object.entries(COLLECTIONS)) {
    const filter = type === 'event' ? 'start_date=1971-01-01&end_date=2999-12-31&' : type === 'category' || type === 'tag' ? 'hide_empty=false&' : '';
    const status = authorization && (type === 'event' || type === 'venue' || type === 'organizer') ? 'status=publish,future,draft,pending,private&' : '';
    for (let page = 1; ; page++) {
      const res = await http(t, authorization).get(`${API}/${collection}?${filter}${status}per_page=50&page=${page}`);
      if (res.status !== 200) break; // past the last page
      const items = (res.body[collection] ?? []) as { id: number }[];
      for (const item of items) {
        const single = await http(t, authorization).get(`${API}/${collection}/${item.id}`);
        expect(single.status).toBe(200);
        out.set(`${type}:${item.id}`, single.body as Json);
      }
      if (page >= Number(res.headers['x-tec-totalpages'] ?? 0)) break;
    }
  }
  return out;
}

describe('a client mirroring the calendar through /changes', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  });
  afterAll(async () => t.close());

  it('ends equal to a full read after creates, updates, trashes, restores and permanent deletes (anonymous and administrator)', async () => {
    const admin = users.admin.authorization;
    const mirrors = [new Mirror(t), new Mirror(t, admin)];
    const syncAll = () => Promise.all(mirrors.map((m) => m.sync()));
    const post = async (path: string, body: Json, expected = [200, 201]) => {
      const res = await http(t, admin).post(`${API}${path}`).send(body);
      expect(expected).toContain(res.status);
      return res.body as Json & { id: number };
    };
    const del = async (path: string) => expect((await http(t, admin).delete(`${API}${path}`)).status).toBe(200);

    await syncAll();
    const parent = await post('/categories', { name: uid('Parent') });
    const child = await post('/categories', { name: uid('Child'), parent: parent.id });
    const tag = await post('/tags', { name: uid('tag') });
    const events: (Json & { id: number })[] = [];
    for (let i = 0; i < 6; i++) {
      events.push(
        await post('/events', {
          title: uid(`Burst ${i}`),
          start_date: `2050-02-0${i + 1} 18:00`,
          end_date: `2050-02-0${i + 1} 20:00`,
          status: i === 5 ? 'draft' : 'publish',
          categories: [i % 2 === 0 ? child.id : parent.id],
          tags: [tag.id],
          venue: { venue: uid(`Hall ${i % 3}`) },
          organizer: [{ organizer: uid(`Host ${i % 2}`) }],
        }),
      );
      if (i === 2) await syncAll(); // the clients read in the middle of the burst too
    }
    const venueOf = (e: Json) => (e.venue as { id: number }).id;
    const organizerOf = (e: Json) => (e.organizer as { id: number }[])[0].id;

    await post(`/events/${events[0].id}`, { title: uid('Renamed') });
    await post(`/venues/${venueOf(events[1])}`, { city: 'Lyon' }); // changes how events[1] shows its venue
    await post(`/categories/${child.id}`, { name: uid('Child renamed') }); // and how events 0, 2, 4 show it
    await syncAll();
    await del(`/events/${events[2].id}`); // trash
    await post(`/events/${events[5].id}`, { status: 'publish' }); // draft → published: anonymous now sees it
    await post(`/events/${events[3].id}`, { status: 'draft' }); // published → draft: anonymous loses it
    await del(`/organizers/${organizerOf(events[4])}`); // trashed: unlinked from its events
    await del(`/events/${events[1].id}?force=true`); // deleted for good
    await syncAll();
    await post(`/events/${events[2].id}`, { status: 'publish' }); // restored
    await del(`/tags/${tag.id}?force=true`); // taken off every event
    await del(`/venues/${venueOf(events[0])}?force=true`);
    await syncAll();
    // Last, changes that touch no event row: only the feed's own bookkeeping can tell the
    // clients that the events showing this venue and this category look different now.
    await post(`/venues/${venueOf(events[4])}`, { city: 'Graz' });
    await post(`/categories/${parent.id}`, { description: 'changed' });
    await syncAll();
    for (const [mirror, caller] of [
      [mirrors[0], undefined],
      [mirrors[1], admin],
    ] as const) {
      const truth = await fullRead(t, caller);
      expect([...mirror.items.keys()].sort()).toEqual([...truth.keys()].sort());
      for (const [key, item] of truth) expect({ key, item: mirror.items.get(key) }).toEqual({ key, item });
    }
    expect(mirrors[0].items.has(`event:${events[3].id}`)).toBe(false);
    expect(mirrors[1].items.has(`event:${events[3].id}`)).toBe(true);
  });

  it('while writers commit concurrently on several connections, a follower misses no committed change', async () => {
    const admin = users.admin.authorization;
    const follower = new Mirror(t);
    await follower.sync();
    const created: { id: number; pass: number }[] = [];
    let writing = true;
    // Eight writers at once: creates, then an update of each (the pool serves them on several connections).
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 5; i++) {
        const res = await http(t, admin)
          .post(`${API}/events`)
          .send({ title: uid(`Race ${w}-${i}`), start_date: '2050-06-01 10:00', end_date: '2050-06-01 11:00', venue: { venue: uid(`Race hall ${w}`) } });
        expect(res.status).toBe(201);
        created.push({ id: res.body.id, pass: i });
        expect(
          (
            await http(t, admin)
              .post(`${API}/events/${res.body.id}`)
              .send({ excerpt: `pass ${i}` })
          ).status,
        ).toBe(200);
      }
    });
    const following = (async () => {
      while (writing) await follower.sync();
    })();
    await Promise.all(writers);
    writing = false;
    await following;
    await follower.sync();
    expect(follower.reads).toBeGreaterThan(2);
    expect(created).toHaveLength(40);
    // Each event as its last update left it: the follower saw the update, not only the create.
    for (const { id, pass } of created) {
      expect({ id, excerpt: (follower.items.get(`event:${id}`) ?? {}).excerpt }).toEqual({ id, excerpt: expect.stringContaining(`pass ${pass}`) });
    }
    const truth = await fullRead(t);
    expect([...follower.items.keys()].sort()).toEqual([...truth.keys()].sort());
  });

  it('the states the log keeps are those of the last commit, while writes that change an event race writes that only show it (its organizers)', async () => {
    // The log keeps each item's status and modified time at its latest change (the feed reads no
    // item rows). An organizer write records the organizer's events without changing them; if it
    // read their states before taking the counter, a status change committed meanwhile would be
    // written back over by the older state. Each round races a status change of every event
    // with a change of every organizer, then checks the feed against the events themselves.
    const admin = users.admin.authorization;
    const organizers: number[] = [];
    for (let i = 0; i < 3; i++)
      organizers.push(
        (
          await http(t, admin)
            .post(`${API}/organizers`)
            .send({ organizer: uid(`Contested host ${i}`) })
        ).body.id,
      );
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({ title: uid(`Contested ${i}`), start_date: '2050-07-01 10:00', end_date: '2050-07-01 11:00', organizer: organizers });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    for (let round = 0; round < 8; round++) {
      await Promise.all([
        ...organizers.map(async (id) =>
          expect(
            (
              await http(t, admin)
                .post(`${API}/organizers/${id}`)
                .send({ phone: `555-01${round}` })
            ).status,
          ).toBe(200),
        ),
        ...ids.map(async (id, k) => {
          const status = (round + k) % 2 === 0 ? 'draft' : 'publish';
          expect((await http(t, admin).post(`${API}/events/${id}`).send({ status })).status).toBe(200);
        }),
      ]);
      // From the beginning, without embed (which would read each item itself): the feed's own verdict.
      const upserts = new Map<number, string | undefined>();
      for await (const page of changePages(t, undefined, undefined, { types: 'event', per_page: '100' })) {
        for (const c of page.changes) if (c.action === 'upsert') upserts.set(c.id, c.modified_utc);
      }
      for (const [k, id] of ids.entries()) {
        const truth = (await http(t, admin).get(`${API}/events/${id}`)).body as { status: string; modified_utc: string };
        const published = (round + k) % 2 === 1;
        expect({ round, id, status: truth.status, listed: upserts.has(id) }).toEqual({ round, id, status: published ? 'publish' : 'draft', listed: published });
        if (published) expect({ round, id, modified: upserts.get(id) }).toEqual({ round, id, modified: truth.modified_utc });
      }
    }
  });

  it('a write that records an event it did not change, waiting for the counter behind a status change of it, keeps the state that change committed', async () => {
    // The same race as above, made certain with two transactions of our own (on MySQL; SQLite
    // runs one write at a time, so there B simply follows A): A changes the event and takes the
    // counter; B records the event, as an organizer write does, and waits for the counter; A
    // commits. B's change row is the event's latest: it must carry A's state.
    const admin = users.admin.authorization;
    const id = (
      await http(t, admin)
        .post(`${API}/events`)
        .send({ title: uid('Held'), start_date: '2050-08-01 10:00', end_date: '2050-08-01 11:00' })
    ).body.id as number;
    const ds = t.app.get(DataSource);
    const kind = ds.options.type === 'mysql' || ds.options.type === 'mariadb' ? 'mysql' : 'sqlite';
    const [a, b] = [ds.createQueryRunner(), ds.createQueryRunner()];
    const record = async () => {
      await b.startTransaction(kind === 'mysql' ? 'READ COMMITTED' : undefined);
      const changed = new ChangeSet(t.app.get(ChangeKinds));
      changed.record('event', id);
      await appendChanges(b.manager, kind, changed, '2049-01-01 00:00:01');
      await b.commitTransaction();
    };
    let recorded: Promise<void> | undefined;
    try {
      await a.startTransaction(kind === 'mysql' ? 'READ COMMITTED' : undefined);
      await a.query("UPDATE events SET status = 'draft', modified_utc = '2049-01-01 00:00:00' WHERE id = ?", [id]);
      const changed = new ChangeSet(t.app.get(ChangeKinds));
      changed.record('event', id);
      await appendChanges(a.manager, kind, changed, '2049-01-01 00:00:00');
      if (kind === 'mysql') {
        const [{ connection }] = (await b.query('SELECT CONNECTION_ID() AS connection')) as { connection: number }[];
        recorded = record();
        // B waits for the counter A holds (its UPDATE of change_counter, blocked); then A commits.
        const blocked = async () =>
          (await ds.query("SELECT 1 FROM information_schema.processlist WHERE id = ? AND info LIKE 'UPDATE change_counter%'", [connection])) as unknown[];
        for (let tries = 0; (await blocked()).length === 0; tries++) {
          if (tries > 500) throw new Error(`B never waited for the counter: ${JSON.stringify(await ds.query('SHOW PROCESSLIST'))}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await a.commitTransaction();
      } else {
        await a.commitTransaction();
        recorded = record();
      }
      await recorded;
    } finally {
      // After a failure: A's rollback lets B go on, and both connections go back to the pool clean.
      if (a.isTransactionActive) await a.rollbackTransaction();
      await recorded?.catch(() => undefined);
      if (b.isTransactionActive) await b.rollbackTransaction();
      await a.release();
      await b.release();
    }
    const [row] = (await ds.query('SELECT status, modified_utc FROM change_log WHERE type = ? AND item_id = ?', ['event', id])) as {
      status: string;
      modified_utc: string;
    }[];
    expect(row).toEqual({ status: 'draft', modified_utc: '2049-01-01 00:00:00' });
    const feed: Change[] = [];
    for await (const page of changePages(t, undefined, admin, { types: 'event', per_page: '100' })) feed.push(...page.changes);
    expect(feed.find((c) => c.id === id)).toMatchObject({ action: 'upsert', modified_utc: '2049-01-01 00:00:00' });
  });
});
