import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * Concurrent writers on two instances sharing one database (a MariaDB database with
 * TEST_DATABASE_URL, else one SQLite file): what must be unique stays unique because the
 * database says so, and no writer gets a 5xx. Each instance has its own connection pool (MySQL)
 * or connection (SQLite), as two processes would.
 */
const WRITERS = 16;
/** The events below are dated 2031: outside the list's default window. */
const WINDOW = 'start_date=2031-01-01&end_date=2031-12-31';

describe('concurrent writers on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let folder: string | null = null;
  let admin: string;

  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (!process.env.TEST_DATABASE_URL) {
      folder = mkdtempSync(join(tmpdir(), 'calendar-race-'));
      env.DATABASE_URL = `sqlite:${join(folder, 'race.sqlite')}`;
    }
    a = await createTestApp(env);
    b = await createTestApp(env, { sharing: a });
    admin = (await a.userHeader('racer', 'administrator')).authorization;
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** `count` requests made by `send`, WRITERS at a time, alternating between the instances. */
  async function race(count: number, send: (t: TestApp, i: number) => Promise<Response>): Promise<Response[]> {
    const results: Response[] = new Array(count);
    let next = 0;
    const writer = async () => {
      for (let i = next++; i < count; i = next++) results[i] = await send(i % 2 === 0 ? a : b, i);
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    return results;
  }

  const statuses = (rs: Response[]) => [...new Set(rs.map((r) => r.status))].sort();
  const event = (title: string, extra: Record<string, unknown> = {}) => ({
    title,
    start_date: '2031-05-01 19:00',
    end_date: '2031-05-01 21:00',
    ...extra,
  });

  it('creates of one title get one slug each', async () => {
    const created = await race(64, (t) => http(t, admin).post(`${API}/events`).send(event('Race Title')));
    expect(statuses(created)).toEqual([201]);
    const slugs = created.map((r) => r.body.slug as string);
    expect(new Set(slugs).size).toBe(64);
    expect(slugs).toContain('race-title');
    for (const slug of slugs) expect(slug).toMatch(/^race-title(-\d+)?$/);
    const list = await http(a, admin).get(`${API}/events?search=Race+Title&per_page=1&${WINDOW}`);
    expect(list.body.total).toBe(64);
  });

  it('one identical nested venue and organizer in parallel event writes make one of each', async () => {
    const created = await race(48, (t, i) =>
      http(t, admin)
        .post(`${API}/events`)
        .send(
          event(`Shared hall night ${i}`, {
            venue: { venue: 'Race Hall', city: 'Turin' },
            organizer: [{ organizer: 'Race Promoter', email: 'promoter@example.org' }],
          }),
        ),
    );
    expect(statuses(created)).toEqual([201]);
    expect(new Set(created.map((r) => r.body.venue.id)).size).toBe(1);
    expect(new Set(created.map((r) => r.body.organizer[0].id)).size).toBe(1);
    expect((await http(a, admin).get(`${API}/venues?search=Race+Hall`)).body.total).toBe(1);
    expect((await http(b, admin).get(`${API}/organizers?search=Race+Promoter`)).body.total).toBe(1);
  });

  it('one category name from many writers: one term, the others told term_exists with its id', async () => {
    const created = await race(WRITERS * 2, (t) => http(t, admin).post(`${API}/categories`).send({ name: 'Race Category' }));
    expect(statuses(created)).toEqual([201, 400]);
    const winners = created.filter((r) => r.status === 201);
    expect(winners).toHaveLength(1);
    for (const loser of created.filter((r) => r.status === 400)) {
      expect(loser.body.code).toBe('term_exists');
      expect(loser.body.data.term_id).toBe(winners[0].body.id);
    }
  });

  it('one new tag named in many event writes: one term carrying every event', async () => {
    const created = await race(WRITERS * 2, (t, i) =>
      http(t, admin)
        .post(`${API}/events`)
        .send(event(`Tagged ${i}`, { tags: ['Race Tag'] })),
    );
    expect(statuses(created)).toEqual([201]);
    expect(new Set(created.map((r) => r.body.tags[0].id)).size).toBe(1);
    const tags = await http(a).get(`${API}/tags?search=race+tag&hide_empty=false`);
    expect(tags.body.total).toBe(1);
    expect(tags.body.tags[0].count).toBe(WRITERS * 2);
  });

  it('mixed updates and deletes of linked events: no 5xx, every answer from the contract', async () => {
    const venue = await http(a, admin).post(`${API}/venues`).send({ venue: 'Mixed Hall' });
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      const r = await http(a, admin)
        .post(`${API}/events`)
        .send(event(`Mixed ${i}`, { venue: venue.body.id, organizer: [{ organizer: 'Mixed Host' }], categories: ['Mixed'], tags: ['mixed'] }));
      ids.push(r.body.id);
    }
    const results = await race(480, (t, i) => {
      const id = ids[i % ids.length];
      return i % 3 === 0
        ? http(t, admin).delete(`${API}/events/${id}`)
        : http(t, admin)
            .post(`${API}/events/${id}`)
            .send({
              title: `Mixed ${id} v${i}`,
              status: 'publish',
              venue: venue.body.id,
              organizer: [{ organizer: 'Mixed Host' }, { organizer: `Mixed Host ${i % 3}` }],
              categories: ['Mixed', `Mixed ${i % 4}`],
              tags: ['mixed', `mixed ${i % 5}`],
            });
    });
    expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    // 200 for updates and the first delete of an event, 410 for a delete of an event already trashed.
    expect(statuses(results).every((s) => s === 200 || s === 410)).toBe(true);
    const category = await http(a).get(`${API}/categories?search=Mixed&hide_empty=false&per_page=50`);
    const live = await http(a, admin).get(`${API}/events?search=Mixed&per_page=50&status=publish&${WINDOW}`);
    const mixed = category.body.categories.find((c: { name: string }) => c.name === 'Mixed');
    // Term counts follow the published events that carry them, whatever the interleaving.
    expect(mixed?.count ?? 0).toBe(live.body.events?.length ?? 0);
  }, 60_000);

  it.each(['events', 'venues', 'organizers'])('%s: parallel deletes trash once; updates racing a delete never undo it', async (route) => {
    const body = (i: number) => (route === 'events' ? event(`Undo ${i}`) : { [route === 'venues' ? 'venue' : 'organizer']: `Undo ${route} ${i}` });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await http(a, admin).post(`${API}/${route}`).send(body(i))).body.id as number);
    // Per item: 4 deletes and 8 updates of another field (never the status), all at once.
    const isDelete = (i: number) => Math.floor(i / ids.length) % 3 === 0;
    const results = await race(ids.length * 12, (t, i) => {
      const id = ids[i % ids.length];
      return isDelete(i)
        ? http(t, admin).delete(`${API}/${route}/${id}`)
        : http(t, admin)
            .post(`${API}/${route}/${id}`)
            .send(route === 'venues' ? { city: `City ${i}` } : { description: `Edit ${i}` });
    });
    expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    for (const [k, id] of ids.entries()) {
      const mine = results.map((r, i) => ({ r, i })).filter(({ i }) => i % ids.length === k);
      const deletes = mine.filter(({ i }) => isDelete(i)).map(({ r }) => r.status);
      expect(deletes.sort()).toEqual([200, 410, 410, 410]);
      // Every update answered 200 (a trashed item can still be edited) and none brought it back.
      expect(mine.filter(({ i }) => !isDelete(i)).map(({ r }) => r.status)).toEqual(new Array(8).fill(200));
      const after = await http(a, admin).get(`${API}/${route}/${id}`);
      // A trashed event is no longer available to anyone (403); a trashed venue/organizer still reads for an administrator.
      if (route === 'events') expect([after.status, after.body.code]).toEqual([403, 'event-no-longer-available']);
      else expect([after.status, after.body.status]).toEqual([200, 'trash']);
    }
  });

  it('a venue trashed while events link it: no live event keeps the trashed venue', async () => {
    const venue = await http(a, admin).post(`${API}/venues`).send({ venue: 'Doomed Hall' });
    const results = await race(WRITERS * 2 + 1, (t, i) =>
      i === WRITERS
        ? http(t, admin).delete(`${API}/venues/${venue.body.id}`)
        : http(t, admin)
            .post(`${API}/events`)
            .send(event(`Doomed ${i}`, { venue: venue.body.id })),
    );
    expect(results.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    // A write after the trash is refused (400, the venue cannot be linked); one before it is unlinked by it.
    expect(statuses(results).every((s) => s === 200 || s === 201 || s === 400)).toBe(true);
    const created = results.filter((r) => r.status === 201).map((r) => r.body.id as number);
    for (const id of created) {
      const read = await http(b, admin).get(`${API}/events/${id}`);
      expect(read.body.venue === undefined || read.body.venue.length === 0 || read.body.venue.id !== venue.body.id).toBe(true);
    }
  });
});
