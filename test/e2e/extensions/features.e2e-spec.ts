// A test app may install a feature of its own: a feature that lives only
// under test/ (test/support/notes) brings its table and migration pair, its change kind and
// its route, and every lower layer takes them from the list the app is given — the schema,
// the change feed, webhooks and migration:check — while an app with the default list knows
// nothing of it.
import { NestFactory } from '@nestjs/core';
import type { MigrationInterface } from 'typeorm';
import { CliModule } from '../../../src/cli/cli.module';
import { migrationCheck } from '../../../src/cli/migration.commands';
import { loadConfig } from '../../../src/config/app-config';
import { FEATURES } from '../../../src/features';
import { schemaDataSourceOptions } from '../../../src/schema';
import { cliDatabase } from '../../support/cli';
import { API, http } from '../../support/http';
import { NOTES_FEATURE } from '../../support/notes/notes.feature';
import { createTestApp, TestApp } from '../../support/test-app';

const WITH_NOTES = [...FEATURES, NOTES_FEATURE];

describe('a feature of its own, installed by a test app', () => {
  let database: Awaited<ReturnType<typeof cliDatabase>>;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // A SQLite file another context can open too (migration:check below); on MariaDB the test
    // app makes a database of its own on that server.
    database = await cliDatabase();
    t = await createTestApp({ DATABASE_URL: database.url, CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on' }, { features: WITH_NOTES });
    admin = (await t.userHeader('notes-admin', 'administrator')).authorization;
  });
  afterAll(async () => {
    await t?.close();
    await database?.remove();
  });

  it("merges the feature's migrations with the core's in timestamp order", () => {
    for (const url of ['sqlite::memory:', 'mysql://root@127.0.0.1:3306/x']) {
      const names = (schemaDataSourceOptions(loadConfig({ DATABASE_URL: url }), WITH_NOTES).migrations as (new () => MigrationInterface)[]).map((m) => m.name);
      const at = names.findIndex((n) => n.startsWith('TestNotes'));
      expect(at).toBeGreaterThan(0);
      const stamp = (n: string) => Number(/(\d+)$/.exec(n)![1]);
      expect(names.map(stamp)).toEqual([...names.map(stamp)].sort((a, b) => a - b));
      expect(at).toBeLessThan(names.length - 1); // between core migrations, not appended
    }
  });

  it('writes through the unit of work into its own table, and the change feed shows its kind with its rest_url', async () => {
    const created = await http(t, admin).post(`${API}/test-notes`).send({ body: 'hello' });
    expect(created.status).toBe(201);
    const feed = await http(t).get(`${API}/changes`).query({ types: 'note' });
    expect(feed.status).toBe(200);
    const upsert = { type: 'note', id: created.body.id, action: 'upsert', rest_url: `${t.baseUrl}${API}/test-notes/${created.body.id}` };
    expect(feed.body.changes).toEqual([upsert]);
    // The feed has no reader of the kind: with `embed` it is still an upsert, without `item`.
    const embedded = await http(t).get(`${API}/changes`).query({ types: 'note', embed: 'true' });
    expect(embedded.body.changes).toEqual([upsert]);
  });

  it('webhooks take a subscription to its kind', async () => {
    const hook = await http(t, admin)
      .post(`${API}/webhooks`)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['note.created'] });
    expect(hook.status).toBe(201);
    const bad = await http(t, admin)
      .post(`${API}/webhooks`)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['nothing.created'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { events: expect.any(String) } } });
  });

  it('migration:check, given the list, finds its entities and migrations in agreement and applied', async () => {
    const config = loadConfig({ DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' });
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(config, { migrate: false, features: WITH_NOTES, readsOnly: true }), {
      logger: false,
    });
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    try {
      expect(await migrationCheck.prepare([])(context)).toBe(0);
    } finally {
      write.mockRestore();
      await context.close();
    }
    const out = written.join('');
    expect(out).toContain('Entities and migrations agree.');
    expect(out).toContain('The database is up to date');
    // Without the list, the feature's applied migration would be unknown to the check.
    expect(out).not.toContain('unknown to this version');
  });

  it('an app with the default list knows nothing of it: its kind is refused by the change feed', async () => {
    const plain = await createTestApp();
    try {
      const feed = await http(plain).get(`${API}/changes`).query({ types: 'note' });
      expect(feed.status).toBe(400);
      expect(feed.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { types: 'Must be a list of event, venue, organizer, category, tag.' } } });
      expect((await http(plain).post(`${API}/test-notes`).send({ body: 'x' })).body.code).toBe('rest_no_route');
    } finally {
      await plain.close();
    }
  });
});
