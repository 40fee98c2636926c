// The capacity extension (extensions/capacity): a team's module in a folder of its own, given
// here to the test app in its list of features and switched on (CALENDAR_CAPACITY). It
// proves each capability of the extension API against the real server on a real database: a
// table with a migration pair, a field written in the event write's unit of work, a list
// filter, a route with the core's auth, OpenAPI, change feed and webhooks, a page fragment,
// iCalendar, a cache of its own and a CLI command. An app without it knows nothing of it.
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppModule } from '../../../src/app.module';
import { CliModule } from '../../../src/cli/cli.module';
import { commandsOf } from '../../../src/cli/commands';
import { migrationCheck, migrationRevert, migrationRun, migrationShow } from '../../../src/cli/migration.commands';
import { DataVersion } from '../../../src/common/cache/data-version.service';
import { ReadModel } from '../../../src/common/cache/read-model';
import type { CliRun } from '../../../src/common/feature/cli-command';
import { loadConfig } from '../../../src/config/app-config';
import { FEATURES } from '../../../src/features';
import { ImportModule } from '../../../src/imports';
import { capacityReport } from '../../../extensions/capacity/capacity-report.command';
import { ANSWERS_CACHE } from '../../../extensions/capacity/capacity.controller';
import { CAPACITY_FEATURE } from '../../../extensions/capacity/capacity.feature';
import { CapacityRepository } from '../../../extensions/capacity/capacity.repository';
import { Caller, createEvent, EventBody, makeUsers, readEvent, uid } from '../../support/api';
import { changePages } from '../../support/changes';
import { cliDatabase } from '../../support/cli';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { servedDocument } from '../../support/openapi';
import { countRows, selectRows } from '../../support/sql';
import { createTestApp, TestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

const WITH_CAPACITY = [...FEATURES, CAPACITY_FEATURE];
const ON = { CALENDAR_CAPACITY: 'on' };
const WEBHOOKS = { CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on', CALENDAR_WEBHOOK_RETRY_BASE_SECONDS: '0.05' };
const YEAR = 'start_date=2030-01-01&end_date=2030-12-31';

type OpenApi = {
  paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema?: { $ref?: string } }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

/** The component names of the event write bodies (create and update). */
function writeBodies(doc: OpenApi): string[] {
  const ops = [doc.paths['/events'].post, doc.paths['/events/{id}'].post, doc.paths['/events/{id}'].patch];
  return [...new Set(ops.flatMap((op) => Object.values(op?.requestBody?.content ?? {}).map((m) => m.schema!.$ref!.split('/').pop()!)))];
}

/**
 * What reading the table answers: its row count, or the error that says it is missing. (The
 * message, not `rejects.toThrow()`: the driver's errors may come from another test file's realm
 * in a run in band, and then are no `Error` of this one.)
 */
const readTable = (t: TestApp): Promise<string> =>
  countRows(t, 'SELECT COUNT(*) AS n FROM event_capacity').then(
    (n) => `${n} rows`,
    (e: { message: string }) => e.message,
  );

/** What a command writes on stdout while `run` runs in `context`, and its exit code. */
async function output(run: CliRun, context: INestApplicationContext): Promise<{ code: number; out: string }> {
  const written: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
  try {
    return { code: await run(context), out: written.join('') };
  } finally {
    write.mockRestore();
  }
}

describe('the capacity module, installed by a test app', () => {
  let database: Awaited<ReturnType<typeof cliDatabase>>;
  let t: TestApp;
  let users: Record<'admin' | 'editor' | 'author' | 'author2' | 'contributor' | 'subscriber', Caller>;

  beforeAll(async () => {
    // A SQLite file the CLI's contexts can open too (the command, migration:*); on MariaDB a database of its own.
    database = await cliDatabase();
    t = await createTestApp({ DATABASE_URL: database.url, ...WEBHOOKS, ...ON }, { features: WITH_CAPACITY });
    users = await makeUsers(t);
    // Only this instance writes: no poll of the change log empties the caches between two reads.
    Object.assign(t.app.get(DataVersion).intervals, { pushed: 3_600_000, polled: 3_600_000 });
  });
  afterAll(async () => {
    await t?.close();
    await database?.remove();
  });

  const capacityRows = (id: number) => selectRows(t, 'SELECT event_id, capacity FROM event_capacity WHERE event_id = ?', [id]);
  const list = async (query: string) => {
    const res = await http(t).get(`${API}/events?${YEAR}&${query}`);
    expectStatus(res, 200);
    return res.body as { events: EventBody[]; total: number; rest_url: string; next_rest_url?: string };
  };

  describe('its table', () => {
    it("is made by its migration, applied with the core's in timestamp order", async () => {
      expect(await readTable(t)).toBe('0 rows');
      const applied = await selectRows(t, 'SELECT name FROM migrations ORDER BY id');
      expect(applied.map((r) => r.name)).toContain('EventCapacity1795800000000');
    });
  });

  describe('the capacity field', () => {
    it('is stored in the write (JSON and form bodies, by id and slug), shown after custom_fields and as maximumAttendeeCapacity', async () => {
      const created = await createEvent(t, users.admin.authorization, { capacity: 40 });
      expect(created.capacity).toBe(40);
      const keys = Object.keys(created);
      expect(keys.indexOf('capacity')).toBeGreaterThan(keys.indexOf('custom_fields'));
      expect(await capacityRows(created.id)).toEqual([{ event_id: created.id, capacity: 40 }]);

      const form = await http(t, users.admin.authorization).post(`${API}/events/${created.id}`).type('form').send('capacity=55');
      expectStatus(form, 200);
      expect(form.body.capacity).toBe(55);
      expectStatus(await http(t, users.admin.authorization).patch(`${API}/events/by-slug/${created.slug}`).send({ capacity: '100000' }), 200);

      const read = await readEvent(t, created.id);
      expect(read.capacity).toBe(100000);
      expect(read.json_ld).toMatchObject({ '@type': 'Event', maximumAttendeeCapacity: 100000 });
    });

    it('is left alone by a write without it or with null (as core parameters are), cleared by "", and null on an event without one', async () => {
      const event = await createEvent(t, users.author.authorization, { capacity: 0 });
      expect(event.capacity).toBe(0);
      expectStatus(await http(t, users.author.authorization).patch(`${API}/events/${event.id}`).send({ title: 'Renamed' }), 200);
      expect((await readEvent(t, event.id, users.author.authorization)).capacity).toBe(0);
      expect((await http(t, users.author.authorization).patch(`${API}/events/${event.id}`).send({ capacity: null })).body.capacity).toBe(0);

      const cleared = await http(t, users.author.authorization).post(`${API}/events/${event.id}`).type('form').send('capacity=');
      expectStatus(cleared, 200);
      expect(cleared.body.capacity).toBeNull();
      expect((await readEvent(t, event.id, users.author.authorization)).json_ld).not.toHaveProperty('maximumAttendeeCapacity');
      expect(await capacityRows(event.id)).toEqual([]);
      expect((await createEvent(t, users.author.authorization)).capacity).toBeNull();
    });

    it.each([['many'], [-1], [100001], [1.5], [true], [[3]]])('answers 400 rest_invalid_param for %p, and keeps nothing of the write', async (bad) => {
      const title = uid('bad');
      expectInvalidParams(
        await http(t, users.admin.authorization)
          .post(`${API}/events`)
          .send({ title, start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', capacity: bad }),
        'capacity',
      );
      expect((await list(`search=${title}`)).events).toEqual([]);

      const event = await createEvent(t, users.admin.authorization, { capacity: 5 });
      expectInvalidParams(await http(t, users.admin.authorization).patch(`${API}/events/${event.id}`).send({ title: 'Changed', capacity: bad }), 'capacity');
      const read = await readEvent(t, event.id);
      expect({ title: read.title, capacity: read.capacity }).toEqual({ title: event.title, capacity: 5 });
    });

    it("is reported with the writer's own parameter checks, in one 400", async () => {
      const res = await http(t, users.contributor.authorization)
        .post(`${API}/events`)
        .send({ title: '<b></b>', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', capacity: 'lots' });
      expectInvalidParams(res, 'title', 'capacity');
    });

    it('stays with an event in the trash and goes with it when it is deleted for good', async () => {
      const event = await createEvent(t, users.admin.authorization, { capacity: 12 });
      expectStatus(await http(t, users.admin.authorization).delete(`${API}/events/${event.id}`), 200);
      expect(await capacityRows(event.id)).toHaveLength(1);
      expectStatus(await http(t, users.admin.authorization).delete(`${API}/events/${event.id}?force=true`), 200);
      expect(await capacityRows(event.id)).toEqual([]);
    });

    it('is presented for a whole page with one query', async () => {
      const token = uid('page');
      for (const capacity of [1, 2, 3]) await createEvent(t, users.admin.authorization, { title: `${token} ${capacity}`, capacity });
      const capacities = jest.spyOn(t.app.get(CapacityRepository), 'capacities');
      try {
        expect((await list(`search=${token}`)).events.map((e) => e.capacity)).toEqual([1, 2, 3]);
        expect(capacities.mock.calls.map(([ids]) => ids.length)).toEqual([3]);
      } finally {
        capacities.mockRestore();
      }
    });
  });

  describe('the min_capacity filter of GET /events', () => {
    it('keeps events that take at least that many, is kept in rest_url and the links, and refuses bad values', async () => {
      const token = uid('min');
      const small = await createEvent(t, users.admin.authorization, { title: `${token} small`, capacity: 10, start_date: '2030-05-01 10:00:00' });
      const big = await createEvent(t, users.admin.authorization, { title: `${token} big`, capacity: 50, start_date: '2030-05-02 10:00:00' });
      const bigger = await createEvent(t, users.admin.authorization, { title: `${token} bigger`, capacity: 80, start_date: '2030-05-03 10:00:00' });
      await createEvent(t, users.admin.authorization, { title: `${token} none`, start_date: '2030-05-04 10:00:00' });

      expect((await list(`search=${token}&min_capacity=0`)).events.map((e) => e.id)).toEqual([small.id, big.id, bigger.id]);
      const page = await list(`search=${token}&min_capacity=20&per_page=1`);
      expect(page.events.map((e) => e.id)).toEqual([big.id]);
      expect(page.total).toBe(2);
      expect(new URL(page.rest_url).searchParams.get('min_capacity')).toBe('20');
      expect(new URL(page.next_rest_url!).searchParams.get('min_capacity')).toBe('20');
      const next = await http(t).get(new URL(page.next_rest_url!).pathname + new URL(page.next_rest_url!).search);
      expect(next.body.events.map((e: EventBody) => e.id)).toEqual([bigger.id]);

      for (const bad of ['many', '-1', '100001', '2.5']) expectInvalidParams(await http(t).get(`${API}/events?min_capacity=${bad}`), 'min_capacity');
    });
  });

  describe('its route GET /events/{id}/capacity', () => {
    it('answers whoever may read the event, under {api_root} and the /wp-json alias, with an ETag', async () => {
      const event = await createEvent(t, users.admin.authorization, { capacity: 30 });
      const ours = await http(t).get(`/calendar/events/v1/events/${event.id}/capacity`);
      expectStatus(ours, 200);
      expect(ours.body).toEqual({ id: event.id, capacity: 30 });
      expect(ours.headers.etag).toMatch(/^"/);
      const alias = await http(t, users.subscriber.authorization).get(`/wp-json/tribe/events/v1/events/${event.id}/capacity`);
      expect(alias.body).toEqual(ours.body);
      const none = await createEvent(t, users.admin.authorization);
      expect((await http(t).get(`${API}/events/${none.id}/capacity`)).body).toEqual({ id: none.id, capacity: null });
    });

    it('answers what GET /events/{id} answers to a caller who may not read the event', async () => {
      const draft = await createEvent(t, users.author.authorization, { status: 'draft', capacity: 3 });
      const trashed = await createEvent(t, users.author.authorization, { capacity: 4 });
      expectStatus(await http(t, users.author.authorization).delete(`${API}/events/${trashed.id}`), 200);
      const cases: [number | string, Caller | null][] = [
        [draft.id, null],
        [draft.id, users.subscriber],
        [draft.id, users.author2],
        [trashed.id, null],
        [999999, null],
      ];
      for (const [id, caller] of cases) {
        const core = await http(t, caller?.authorization).get(`${API}/events/${id}`);
        expect(core.status).toBeGreaterThanOrEqual(400);
        const ours = await http(t, caller?.authorization).get(`${API}/events/${id}/capacity`);
        expect({ status: ours.status, body: ours.body }).toEqual({ status: core.status, body: core.body });
      }
      expect((await http(t, users.author.authorization).get(`${API}/events/${draft.id}/capacity`)).body).toEqual({ id: draft.id, capacity: 3 });
      expectError(await http(t, 'Basic bm86bm8=').get(`${API}/events/${draft.id}/capacity`), 401, 'invalid_username');
      expectError(await http(t).get(`${API}/events/abc/capacity`), 404, 'rest_no_route');
    });

    it("keeps its answers in the module's cache, which every write empties", async () => {
      const event = await createEvent(t, users.admin.authorization, { capacity: 8 });
      const stats = () =>
        t.app
          .get(ReadModel)
          .stats()
          .find((s) => s.name === ANSWERS_CACHE)!;
      const read = async () => (await http(t).get(`${API}/events/${event.id}/capacity`)).body as { capacity: number };

      expect((await read()).capacity).toBe(8);
      const hits = stats().hits;
      expect((await read()).capacity).toBe(8);
      expect(stats().hits).toBe(hits + 1);

      expectStatus(await http(t, users.admin.authorization).patch(`${API}/events/${event.id}`).send({ capacity: 9 }), 200);
      expect((await read()).capacity).toBe(9);
      expect(stats().hits).toBe(hits + 1);
    });
  });

  describe('OpenAPI', () => {
    it('documents the route, the field on Event and in the write bodies, and min_capacity', async () => {
      const doc = await servedDocument<OpenApi>(t);
      expect(doc.paths['/events/{id}/capacity']).toHaveProperty('get');
      expect(doc.components.schemas.Event.properties).toHaveProperty('capacity');
      const bodies = writeBodies(doc);
      expect(bodies.length).toBeGreaterThan(0);
      for (const name of bodies) expect(doc.components.schemas[name].properties).toHaveProperty('capacity');
      expect(doc.paths['/events'].get.parameters!.map((p) => p.name)).toContain('min_capacity');
    });
  });

  describe('the change feed and webhooks', () => {
    it('carry a change of the capacity alone as an event change, with the field in the item', async () => {
      const receiver = new WebhookReceiver();
      const target = await receiver.start();
      const event = await createEvent(t, users.admin.authorization, { capacity: 70 });
      let since = '';
      for await (const page of changePages(t, undefined, undefined, { per_page: '100' })) since = page.next_sync_token;
      const hook = await http(t, users.admin.authorization)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['event.updated'] });
      expectStatus(hook, 201);
      try {
        expectStatus(await http(t, users.admin.authorization).patch(`${API}/events/${event.id}`).send({ capacity: 77 }), 200);

        const changes = [];
        for await (const page of changePages(t, since, undefined, { embed: 'true' })) changes.push(...page.changes);
        expect(changes).toEqual([expect.objectContaining({ type: 'event', id: event.id, action: 'upsert', item: expect.objectContaining({ capacity: 77 }) })]);

        const [delivery] = await receiver.until((all) => all.length >= 1);
        expect(delivery.body.event).toBe('event.updated');
        expect(delivery.body.data).toMatchObject({ type: 'event', id: event.id, item: { capacity: 77 } });
      } finally {
        await http(t, users.admin.authorization).delete(`${API}/webhooks/${hook.body.id as number}`);
        await receiver.stop();
      }
    });
  });

  describe('the event page and iCalendar', () => {
    it('put its fragment on the event page: the title as plain text, escaped once', async () => {
      const token = uid('page');
      const event = await createEvent(t, users.admin.authorization, { title: `Tom & Jerry <b>"live"</b> ${token}`, capacity: 25 });
      const page = await http(t).get(`/event/${event.slug}/`);
      expectStatus(page, 200);
      expect(page.text).toContain(`<p class="capacity">Tom &amp; Jerry &quot;live&quot; ${token} takes up to 25 people.</p>`);
    });

    it('add X-CAPACITY to the VEVENTs of events that have one', async () => {
      const token = uid('ics');
      const kept = await createEvent(t, users.admin.authorization, { title: `${token} kept`, capacity: 33 });
      await createEvent(t, users.admin.authorization, { title: `${token} plain` });
      expect((await http(t).get(`${API}/events/${kept.id}.ics`)).text).toContain('X-CAPACITY:33\r\n');
      const feed = await http(t).get(`${API}/events.ics?${YEAR}&search=${token}`);
      expectStatus(feed, 200);
      expect(feed.text.match(/X-CAPACITY:/g)).toEqual(['X-CAPACITY:']);
    });
  });

  describe('its command and its migrations', () => {
    const config = () => loadConfig({ DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent', ...ON });

    it("capacity:report reaches the CLI's commands by the feature list, and runs in the service's context", async () => {
      // src/cli.ts runs the installed features' commands (src/features.ts); a test-only feature's
      // is found the same way from its list, and run in the context cli.ts starts for `import`.
      expect(commandsOf(WITH_CAPACITY)['capacity:report']).toBe(capacityReport);
      expect(commandsOf(FEATURES)).not.toHaveProperty(['capacity:report']);
      expect(() => capacityReport.prepare(['extra'])).toThrow('capacity:report takes no arguments.');

      const token = uid('report');
      const event = await createEvent(t, users.admin.authorization, { title: token, capacity: 99999 });
      const context = await NestFactory.createApplicationContext(ImportModule.forRoot(AppModule.forRoot(config(), WITH_CAPACITY)), { logger: false });
      try {
        const { code, out } = await output(capacityReport.prepare([]), context);
        expect(code).toBe(0);
        const lines = out.trimEnd().split('\n');
        expect(lines).toContain(`${event.id}\t99999\t${token}`);
        const capacities = lines.slice(0, -1).map((line) => Number(line.split('\t')[1]));
        expect(capacities).toEqual([...capacities].sort((a, b) => b - a));
        const stored = await selectRows(t, 'SELECT COUNT(*) AS n, SUM(capacity) AS places FROM event_capacity');
        expect(lines.at(-1)).toBe(`${Number(stored[0].n)} events, ${Number(stored[0].places)} places`);
      } finally {
        await context.close();
      }
    });

    it('migration:check, migration:revert and migration:run, given the list, find, undo and redo its table', async () => {
      const cli = (readsOnly = false) =>
        NestFactory.createApplicationContext(CliModule.forRoot(config(), { migrate: false, features: WITH_CAPACITY, readsOnly }), { logger: false });
      const run = async (command: CliRun, readsOnly = false) => {
        const context = await cli(readsOnly);
        try {
          return await output(command, context);
        } finally {
          await context.close();
        }
      };

      const check = await run(migrationCheck.prepare([]), true);
      expect(check.code).toBe(0);
      expect(check.out).toContain('Entities and migrations agree.');
      expect(check.out).toContain('The database is up to date');

      // Reverted newest first, with the core's migrations in timestamp order: later core
      // migrations go first, then the module's; its table is gone once its migration is pending.
      for (let i = 0; i < 10 && !(await run(migrationShow.prepare([]))).out.includes('[ ] EventCapacity1795800000000'); i++) {
        expect((await run(migrationRevert.prepare([]))).code).toBe(0);
      }
      expect((await run(migrationShow.prepare([]))).out).toContain('[ ] EventCapacity1795800000000');
      expect(await readTable(t)).toMatch(/event_capacity/);

      expect((await run(migrationRun.prepare([]))).out).toContain('applied EventCapacity1795800000000');
      expect(await readTable(t)).toBe('0 rows');
    });
  });
});

describe('an app without the capacity module', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The core's features only: the extension is not installed (not in extensions/, not in CALENDAR_EXTENSIONS).
    t = await createTestApp({}, { features: FEATURES });
  });
  afterAll(async () => t.close());

  it('ignores capacity and min_capacity, has no route, no table and nothing of it in /doc', async () => {
    const { admin } = await makeUsers(t);
    const event = await createEvent(t, admin.authorization, { capacity: 'many' });
    expect(event).not.toHaveProperty('capacity');
    expect((await readEvent(t, event.id)).json_ld).not.toHaveProperty('maximumAttendeeCapacity');

    const plain = await http(t).get(`${API}/events?${YEAR}`);
    const filtered = await http(t).get(`${API}/events?${YEAR}&min_capacity=abc`);
    expectStatus(filtered, 200);
    expect(filtered.body.events).toEqual(plain.body.events);

    expectError(await http(t).get(`${API}/events/${event.id}/capacity`), 404, 'rest_no_route');
    expect(await readTable(t)).toMatch(/event_capacity/);

    const doc = await servedDocument<OpenApi>(t);
    expect(doc.paths).not.toHaveProperty(['/events/{id}/capacity']);
    expect(doc.components.schemas.Event.properties).not.toHaveProperty('capacity');
    for (const name of writeBodies(doc)) expect(doc.components.schemas[name].properties).not.toHaveProperty('capacity');
    expect(doc.paths['/events'].get.parameters!.map((p) => p.name)).not.toContain('min_capacity');
  });
});
