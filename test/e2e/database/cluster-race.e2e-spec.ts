// Two instances writing through different nodes of a MySQL-compatible cluster:
// .ci/run starts the 3-node Galera cluster of ../shared/tools/galera and sets
// TEST_CLUSTER_NODES=mysql://root@127.0.0.1:3311,mysql://root@127.0.0.1:3312. Without it this
// file is skipped and says so (a single server cannot show what certification conflicts do).
import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import type { Response } from 'supertest';
import { SHARED_VERSION_POLL_MS } from '../../../src/common/cache/data-version.service';
import { ScheduledPublisher } from '../../../src/events';
import { createCategory, createEvent, readEvent, readTerm, uid } from '../../support/api';
import { Change, changePages } from '../../support/changes';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const NODES = (process.env.TEST_CLUSTER_NODES ?? '').split(',').filter(Boolean);
const WRITERS = 16;
const PER_WRITER = 12;
const WINDOW = 'start_date=2031-01-01&end_date=2031-12-31';
// Every commit is certified by three nodes on one machine: slow, so generous time limits.
jest.setTimeout(180_000);

const describeCluster = NODES.length >= 2 ? describe : describe.skip;
if (NODES.length < 2) console.warn('SKIPPED the cluster race: set TEST_CLUSTER_NODES to two nodes of a Galera cluster (see .ci/run)');

describeCluster('two instances through two cluster nodes', () => {
  const database = `calendar_cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  let admin: string;

  const admin1 = async (sql: string) => {
    const c = await createConnection({ uri: NODES[0] });
    await c.query(sql);
    await c.end();
  };

  beforeAll(async () => {
    await admin1(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const url = `${NODES[0].replace(/\/$/, '')}/${database}`;
    // Both start at once on the empty database: one applies the migrations, the other waits.
    [a, b] = await Promise.all([createTestApp({}, { sharing: { databaseUrl: url } }), createTestApp({}, { sharing: { databaseUrl: url }, through: NODES[1] })]);
    admin = (await a.userHeader('cluster-admin', 'administrator')).authorization;
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await admin1(`DROP DATABASE IF EXISTS \`${database}\``);
  });

  /** WRITERS writers, each sending PER_WRITER requests, alternating between the instances. */
  async function race(send: (t: TestApp, i: number) => Promise<Response>): Promise<Response[]> {
    const results: Response[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let k = 0; k < PER_WRITER; k++) {
          const i = w * PER_WRITER + k;
          results[i] = await send(i % 2 === 0 ? a : b, i);
        }
      }),
    );
    return results;
  }

  const failures = (rs: Response[]) => rs.filter((r) => r.status >= 500).map((r) => ({ status: r.status, body: r.body }));
  /** Other instances see a write within the poll interval; replication is quicker still. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, SHARED_VERSION_POLL_MS * 4));
  const event = (title: string, extra: Record<string, unknown> = {}) => ({ title, start_date: '2031-05-01 19:00', end_date: '2031-05-01 21:00', ...extra });

  it('every pooled connection of an instance on a Galera node reads causally, not only those a write used', async () => {
    // First, while the instances are fresh. Ten reads at once take every connection of the pool, most of which no write has used.
    for (const t of [a, b]) {
      const ds = t.app.get(DataSource);
      const values = await Promise.all(
        Array.from({ length: 10 }, async () => Number((await ds.query('SELECT SLEEP(0.05), @@SESSION.wsrep_sync_wait AS v'))[0].v)),
      );
      expect(values).toEqual(Array(10).fill(1));
    }
  });

  it('creates of one title: every one stored, each its own slug, no 5xx', async () => {
    const created = await race((t) => http(t, admin).post(`${API}/events`).send(event('Cluster Title')));
    expect(failures(created)).toEqual([]);
    expect(new Set(created.map((r) => r.status))).toEqual(new Set([201]));
    const slugs = created.map((r) => r.body.slug as string);
    expect(new Set(slugs).size).toBe(created.length);
    await settle();
    for (const t of [a, b]) {
      expect((await http(t, admin).get(`${API}/events?search=Cluster+Title&per_page=1&${WINDOW}`)).body.total).toBe(created.length);
    }
  });

  it('unique venue and tag names: every create answered and stored, nothing lost', async () => {
    const venues = await race((t, i) =>
      http(t, admin)
        .post(`${API}/venues`)
        .send({ venue: `Cluster Hall ${i}` }),
    );
    const tags = await race((t, i) =>
      http(t, admin)
        .post(`${API}/tags`)
        .send({ name: `cluster tag ${i}` }),
    );
    expect([...failures(venues), ...failures(tags)]).toEqual([]);
    expect(new Set([...venues, ...tags].map((r) => r.status))).toEqual(new Set([201]));
    await settle();
    expect((await http(b, admin).get(`${API}/venues?search=Cluster+Hall&per_page=1`)).body.total).toBe(venues.length);
    expect((await http(a).get(`${API}/tags?search=cluster+tag&hide_empty=false&per_page=1`)).body.total).toBe(tags.length);
  });

  it('one nested venue and one category named by every writer: one of each, every event linked', async () => {
    const created = await race((t, i) =>
      http(t, admin)
        .post(`${API}/events`)
        .send(event(`Shared ${i}`, { venue: { venue: 'Cluster Arena', city: 'Oslo' }, categories: ['Cluster Category'] })),
    );
    expect(failures(created)).toEqual([]);
    expect(new Set(created.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(created.map((r) => r.body.venue.id)).size).toBe(1);
    expect(new Set(created.map((r) => r.body.categories[0].id)).size).toBe(1);
    await settle();
    const category = await http(a).get(`${API}/categories?search=Cluster+Category&hide_empty=false`);
    expect(category.body.total).toBe(1);
    expect(category.body.categories[0].count).toBe(created.length);
  });

  it('a due scheduled event published by two instances at once, through two nodes: one change, one count', async () => {
    // Two more instances whose timers publish nothing (CALENDAR_SCHEDULE_POLL_SECONDS=0), so that
    // both ticks below race for the same due event instead of a timer taking it first.
    const url = `${NODES[0].replace(/\/$/, '')}/${database}`;
    const off = { CALENDAR_SCHEDULE_POLL_SECONDS: '0' };
    const [c, d] = await Promise.all([
      createTestApp(off, { sharing: { databaseUrl: url } }),
      createTestApp(off, { sharing: { databaseUrl: url }, through: NODES[1] }),
    ]);
    try {
      const category = await createCategory(c, admin, { name: uid('cluster-sched') });
      // Due a few seconds from now (commits are certified by three nodes: creating takes a while).
      const due = new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000);
      const dateUtc = due.toISOString().replace('T', ' ').slice(0, 19);
      const event = await createEvent(c, admin, { title: uid('cluster-sched'), date_utc: dateUtc, categories: [category.id] });
      expect(event.status).toBe('future');
      let token: string | undefined;
      for await (const page of changePages(c, undefined, admin)) token = page.next_sync_token;
      while (Date.now() <= due.getTime()) await new Promise((resolve) => setTimeout(resolve, due.getTime() + 50 - Date.now()));
      const published = await Promise.all([c.app.get(ScheduledPublisher).tick(), d.app.get(ScheduledPublisher).tick()]);
      expect(published[0] + published[1]).toBe(1);
      await settle();
      const changes: Change[] = [];
      for await (const page of changePages(d, token, admin)) changes.push(...page.changes);
      expect(changes.filter((ch) => ch.type === 'event' && ch.id === event.id)).toHaveLength(1);
      expect((await readEvent(d, event.id)).status).toBe('publish');
      expect((await readTerm(d, 'categories', category.id)).count).toBe(1);
    } finally {
      await d.close();
      await c.close();
    }
  });
});
