import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';

/** Cached totals and presented events must never outlive a write. */
describe('read caches follow every write', () => {
  let t: TestApp;
  let admin: string;
  const list = async () => (await http(t).get(`${API}/events?start_date=2030-01-01&end_date=2030-12-31`)).body;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it('a created, updated and trashed event shows on the next read', async () => {
    expect((await list()).total).toBe(0);
    const made = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'First', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00', categories: ['Music'], venue: { venue: 'Hall' } });
    expect(made.status).toBe(201);
    let body = await list();
    expect(body.total).toBe(1);
    expect(body.events[0].title).toBe('First');

    await http(t, admin).patch(`${API}/events/${made.body.id}`).send({ title: 'Renamed' });
    expect((await list()).events[0].title).toBe('Renamed');

    await http(t, admin).delete(`${API}/events/${made.body.id}`);
    body = await list();
    expect(body.total).toBe(0);
    expect(body.events).toEqual([]);
  });

  it('a write that moves an event re-orders the cached page, and a new match joins the count', async () => {
    const window = `${API}/events?start_date=2031-01-01&end_date=2031-12-31&per_page=2`;
    const page = async () => {
      const body = (await http(t).get(window)).body;
      return { total: body.total, titles: body.events.map((e: { title: string }) => e.title) };
    };
    const a = await http(t, admin).post(`${API}/events`).send({ title: 'A', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' });
    const b = await http(t, admin).post(`${API}/events`).send({ title: 'B', start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00' });
    expect(await page()).toEqual({ total: 2, titles: ['B', 'A'] });
    await http(t, admin).patch(`${API}/events/${b.body.id}`).send({ start_date: '2031-04-01 10:00', end_date: '2031-04-01 11:00' });
    expect(await page()).toEqual({ total: 2, titles: ['A', 'B'] });
    await http(t, admin).post(`${API}/events`).send({ title: 'C', start_date: '2031-01-15 10:00', end_date: '2031-01-15 11:00' });
    expect(await page()).toEqual({ total: 3, titles: ['C', 'A'] });
    await http(t, admin).delete(`${API}/events/${a.body.id}`);
    expect(await page()).toEqual({ total: 2, titles: ['C', 'B'] });
  });

  it('filter lookups follow term writes: a new category, a new child category', async () => {
    const inWindow = (query: string) => http(t).get(`${API}/events?start_date=2032-01-01&end_date=2032-12-31&${query}`);
    expect((await inWindow('categories=brass')).status).toBe(400);
    const brass = await http(t, admin).post(`${API}/categories`).send({ name: 'Brass' });
    expect(brass.status).toBe(201);
    await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'Band', start_date: '2032-02-01 10:00', end_date: '2032-02-01 11:00', categories: [brass.body.id] });
    expect((await inWindow('categories=brass')).body.events.map((e: { title: string }) => e.title)).toEqual(['Band']);
    const tuba = await http(t, admin).post(`${API}/categories`).send({ name: 'Tuba', parent: brass.body.id });
    await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'Solo', start_date: '2032-01-15 10:00', end_date: '2032-01-15 11:00', categories: [tuba.body.id] });
    expect((await inWindow('categories=brass')).body.events.map((e: { title: string }) => e.title)).toEqual(['Solo', 'Band']);
  });

  it('renaming an embedded category or venue shows in the cached event', async () => {
    const made = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'Embedded', start_date: '2030-06-01 10:00', end_date: '2030-06-01 11:00', categories: ['Jazz'], venue: { venue: 'Old hall' } });
    let item = (await list()).events[0];
    expect(item.categories[0].name).toBe('Jazz');
    await http(t, admin).patch(`${API}/categories/${item.categories[0].id}`).send({ name: 'Bebop' });
    item = (await list()).events[0];
    expect(item.categories[0].name).toBe('Bebop');
    await http(t, admin).patch(`${API}/venues/${made.body.venue.id}`).send({ venue: 'New hall' });
    expect((await list()).events[0].venue.venue).toBe('New hall');
    await http(t, admin).delete(`${API}/venues/${made.body.venue.id}`);
    expect((await list()).events[0].venue).toEqual([]);
  });

  it('pages read a block at a time stay right beyond the first block, and follow a write', async () => {
    // 230 events, one a day from 2042-01-01: past the first block of page ids (200; 4 pages of 50).
    const ids: number[] = [];
    for (let day = 0; day < 230; day++) {
      const start = new Date(Date.UTC(2042, 0, 1 + day, 10)).toISOString().replace('T', ' ').slice(0, 19);
      const made = await http(t, admin)
        .post(`${API}/events`)
        .send({ title: `Day ${day}`, start_date: start, end_date: start });
      expect(made.status).toBe(201);
      ids.push(made.body.id as number);
    }
    const window = 'start_date=2042-01-01&end_date=2042-12-31';
    const pageIds = async (perPage: number, page: number) => {
      const res = await http(t).get(`${API}/events?${window}&per_page=${perPage}&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(230);
      return res.body.events.map((e: { id: number }) => e.id);
    };
    // Read the later pages first, then the earlier ones, in two page sizes.
    expect(await pageIds(50, 5)).toEqual(ids.slice(200, 230));
    expect(await pageIds(50, 4)).toEqual(ids.slice(150, 200));
    expect(await pageIds(50, 1)).toEqual(ids.slice(0, 50));
    expect(await pageIds(7, 33)).toEqual(ids.slice(224, 230));
    expect(await pageIds(7, 29)).toEqual(ids.slice(196, 203)); // first page of the second block (28 pages of 7)
    expect(await pageIds(7, 28)).toEqual(ids.slice(189, 196));
    expect((await http(t).get(`${API}/events?${window}&per_page=50&page=6`)).status).toBe(404);

    // Trash the 10th event: every later page shifts by one, the cached blocks included.
    expect((await http(t, admin).delete(`${API}/events/${ids[9]}`)).status).toBe(200);
    const left = ids.filter((_, i) => i !== 9);
    const res = await http(t).get(`${API}/events?${window}&per_page=50&page=5`);
    expect(res.body.total).toBe(229);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual(left.slice(200, 229));
    expect((await http(t).get(`${API}/events?${window}&per_page=7&page=29`)).body.events.map((e: { id: number }) => e.id)).toEqual(left.slice(196, 203));
  });

  it('cached list pages and single reads keep text outside ASCII intact, with the right length', async () => {
    const title = 'Café Ünïcode — ☃ 🎉 日本語';
    const made = await http(t, admin).post(`${API}/events`).send({ title, start_date: '2043-03-01 10:00', end_date: '2043-03-01 11:00' });
    expect(made.status).toBe(201);
    for (let round = 0; round < 2; round++) {
      // the second round is served from the caches; uncoded, so that Content-Length is the text's
      const list = await http(t).get(`${API}/events?start_date=2043-01-01&end_date=2043-12-31`).set('Accept-Encoding', 'identity');
      expect(list.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(Number(list.headers['content-length'])).toBe(Buffer.byteLength(list.text));
      expect(list.body.events.map((e: { title: string }) => e.title)).toEqual([title]);
      const one = await http(t).get(`${API}/events/${made.body.id}`).set('Accept-Encoding', 'identity');
      expect(Number(one.headers['content-length'])).toBe(Buffer.byteLength(one.text));
      expect(one.body.title).toBe(title);
    }
  });

  it('venue and organizer lists follow a rename, and a scheduled item turns public at its date', async () => {
    const kinds = ['venue', 'organizer'] as const;
    const names = async (kind: (typeof kinds)[number], search: string) => {
      const body = (await http(t).get(`${API}/${kind}s?search=${search}&per_page=50`)).body;
      return ((body[`${kind}s`] ?? []) as Record<string, string>[]).map((item) => `${item[kind]}/${item.status}`).sort();
    };
    // Scheduled two seconds ahead: hidden from anonymous readers until then, then listed as published.
    const soon = new Date(Date.now() + 2000).toISOString().replace('T', ' ').slice(0, 19);
    for (const kind of kinds) {
      const made = await http(t, admin)
        .post(`${API}/${kind}s`)
        .send({ [kind]: `Cached ${kind} zz-one` });
      expect(made.status).toBe(201);
      expect(await names(kind, 'zz-')).toEqual([`Cached ${kind} zz-one/publish`]);
      await http(t, admin)
        .post(`${API}/${kind}s/${made.body.id}`)
        .send({ [kind]: `Cached ${kind} zz-renamed` });
      expect(await names(kind, 'zz-')).toEqual([`Cached ${kind} zz-renamed/publish`]);
      const later = await http(t, admin)
        .post(`${API}/${kind}s`)
        .send({ [kind]: `Cached ${kind} zz-later`, status: 'future', date_utc: soon });
      expect(later.status).toBe(201);
      expect(await names(kind, 'zz-')).toEqual([`Cached ${kind} zz-renamed/publish`]);
    }
    await new Promise((resolve) => setTimeout(resolve, 2500));
    for (const kind of kinds) {
      expect(await names(kind, 'zz-')).toEqual([`Cached ${kind} zz-later/publish`, `Cached ${kind} zz-renamed/publish`]);
    }
  }, 15_000);

  it('category and tag lists follow term writes and the counts event writes move', async () => {
    for (const [collection, name] of [
      ['categories', 'Cached cat zq'],
      ['tags', 'Cached tag zq'],
    ] as const) {
      const list = async (query: string) => (await http(t).get(`${API}/${collection}?search=zq${query}`)).body;
      expect((await list('&hide_empty=false')).total).toBe(0);
      const term = await http(t, admin).post(`${API}/${collection}`).send({ name });
      expect(term.status).toBe(201);
      expect((await list('&hide_empty=false'))[collection].map((c: { name: string; count: number }) => [c.name, c.count])).toEqual([[name, 0]]);
      expect((await list('')).total).toBe(0); // empty terms hidden by default
      const event = await http(t, admin)
        .post(`${API}/events`)
        .send({ title: 'Counted', start_date: '2044-01-01 10:00', end_date: '2044-01-01 11:00', [collection]: [term.body.id] });
      expect(event.status).toBe(201);
      expect((await list(''))[collection].map((c: { name: string; count: number }) => [c.name, c.count])).toEqual([[name, 1]]);
      await http(t, admin)
        .post(`${API}/${collection}/${term.body.id}`)
        .send({ name: `${name} renamed` });
      expect((await list(''))[collection].map((c: { name: string }) => c.name)).toEqual([`${name} renamed`]);
    }
  });

  it('deletes of every kind, and items made inside an event write, show on the next read of every cached list', async () => {
    // Warm every list first, so each assertion below reads through a cache the write must have emptied.
    const names = async (collection: string, field: string) =>
      ((await http(t).get(`${API}/${collection}?search=zk&hide_empty=false&per_page=50`)).body[collection] ?? []).map((i: Record<string, string>) => i[field]);
    for (const [collection, field] of [
      ['venues', 'venue'],
      ['organizers', 'organizer'],
      ['categories', 'name'],
      ['tags', 'name'],
    ]) {
      expect(await names(collection, field)).toEqual([]);
    }
    const event = await http(t, admin)
      .post(`${API}/events`)
      .send({
        title: 'Makes its links zk',
        start_date: '2045-01-01 10:00',
        end_date: '2045-01-01 11:00',
        venue: { venue: 'Nested hall zk' },
        organizer: [{ organizer: 'Nested crew zk' }],
        categories: ['Nested cat zk'],
        tags: ['Nested tag zk'],
      });
    expect(event.status).toBe(201);
    const single = async () => (await http(t).get(`${API}/events/${event.body.id}`)).body;
    expect((await single()).venue.venue).toBe('Nested hall zk');
    expect(await names('venues', 'venue')).toEqual(['Nested hall zk']);
    expect(await names('organizers', 'organizer')).toEqual(['Nested crew zk']);
    expect(await names('categories', 'name')).toEqual(['Nested cat zk']);
    expect(await names('tags', 'name')).toEqual(['Nested tag zk']);

    // Venues and organizers go to the trash; terms are deleted (they have no trash: force=true).
    for (const [collection, id, field, query] of [
      ['venues', event.body.venue.id, 'venue', ''],
      ['organizers', event.body.organizer[0].id, 'organizer', ''],
      ['categories', event.body.categories[0].id, 'name', '?force=true'],
      ['tags', event.body.tags[0].id, 'name', '?force=true'],
    ]) {
      const removed = await http(t, admin).delete(`${API}/${collection}/${id}${query}`);
      expect(removed.status).toBe(200);
      expect(await names(collection, field)).toEqual([]);
    }
    // The cached single read follows the deletes of what it embeds.
    const after = await single();
    expect(after.categories).toEqual([]);
    expect(after.tags).toEqual([]);
  });
});
