// An extension installed by configuration: the capacity example in extensions/capacity, found
// there and by CALENDAR_EXTENSIONS, switched on and off by its own setting (CALENDAR_CAPACITY),
// with its route, its migration and nothing left of it when off. Its command in `cli help` and
// through the command line: extension-cli (e2e-slow).
import { DataSource } from 'typeorm';
import { ConfigError } from '../../../src/config/app-config';
import { EXTENSIONS_FOLDER, FEATURES, installedFeatures } from '../../../src/features';
import { createEvent, makeUsers } from '../../support/api';
import { expectError, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { servedDocument } from '../../support/openapi';
import { countRows } from '../../support/sql';
import { createTestApp, type TestApp } from '../../support/test-app';

const BY_PATH = { CALENDAR_EXTENSIONS: 'extensions/capacity' };

describe('finding extensions', () => {
  it('takes every folder of extensions/ and every CALENDAR_EXTENSIONS path, each once, after the core', () => {
    expect(EXTENSIONS_FOLDER).toMatch(/extensions$/);
    const names = installedFeatures([' extensions/capacity ', 'extensions/capacity/index.ts']).map((f) => f.name);
    expect(names.slice(0, FEATURES.length)).toEqual(FEATURES.map((f) => f.name));
    expect(names.filter((n) => n === 'capacity')).toEqual(['capacity']);
  });

  it('refuses a path that cannot be loaded or that exports no feature, as a configuration error', () => {
    expect(() => installedFeatures(['extensions/nothing-here'])).toThrow(ConfigError);
    expect(() => installedFeatures(['extensions/nothing-here'])).toThrow(/extension extensions\/nothing-here could not be loaded/);
    expect(() => installedFeatures(['test/support/http'])).toThrow(/test\/support\/http exports no Feature as its default export/);
  });
});

describe('the capacity extension, installed by CALENDAR_EXTENSIONS and switched on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...BY_PATH, CALENDAR_CAPACITY: 'on' });
  });
  afterAll(async () => t?.close());

  it('serves its field and its route, documented in /doc', async () => {
    const { admin } = await makeUsers(t);
    const event = await createEvent(t, admin.authorization, { capacity: 40 });
    expect(event).toMatchObject({ capacity: 40 });
    const answer = await http(t).get(`${API}/events/${event.id}/capacity`);
    expectStatus(answer, 200);
    expect(answer.body).toEqual({ id: event.id, capacity: 40 });
    const doc = await servedDocument<{ paths: Record<string, unknown> }>(t);
    expect(doc.paths).toHaveProperty(['/events/{id}/capacity']);
  });

  it('applied its migration, from its own folder, with the core’s', async () => {
    const names = t.app.get(DataSource).migrations.map((m) => m.name);
    expect(names).toContain('EventCapacity1795800000000');
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM event_capacity')).toBeGreaterThanOrEqual(1);
  });
});

describe('the capacity extension switched off by its setting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...BY_PATH, CALENDAR_CAPACITY: 'off' });
  });
  afterAll(async () => t?.close());

  it('leaves no field, route or document behind; its table stays for when it is back', async () => {
    const { admin } = await makeUsers(t);
    const event = await createEvent(t, admin.authorization, { capacity: 40 });
    expect(event).not.toHaveProperty('capacity');
    expectError(await http(t).get(`${API}/events/${event.id}/capacity`), 404, 'rest_no_route');
    const doc = await servedDocument<{ paths: Record<string, unknown> }>(t);
    expect(doc.paths).not.toHaveProperty(['/events/{id}/capacity']);
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM event_capacity')).toBe(0);
  });

  it('is off unless its setting says on', async () => {
    // The features given as the server finds them, so that TEST_EXTENSION_MODULES=on (which
    // switches the extensions of an app on) leaves this app at the setting's default.
    const plain = await createTestApp(BY_PATH, { features: installedFeatures([BY_PATH.CALENDAR_EXTENSIONS]) });
    try {
      expectError(await http(plain).get(`${API}/events/1/capacity`), 404, 'rest_no_route');
    } finally {
      await plain.close();
    }
  });
});

describe("the extension's setting is checked at start-up", () => {
  it('refuses a bad value with the core’s configuration error', async () => {
    await expect(createTestApp({ ...BY_PATH, CALENDAR_CAPACITY: 'maybe', PORT: 'eighty' })).rejects.toThrow(
      new ConfigError(['PORT must be a whole number from 1 to 65535 (got "eighty")', 'CALENDAR_CAPACITY must be on or off (got "maybe")']),
    );
  });
});
