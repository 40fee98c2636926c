// The import scaffold (src/imports): ImportWriter writes through the services the routes use,
// records the source → local mapping with the record, and decides created/updated/unchanged.
// Checked through the HTTP API of the same app, on its real database.
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/database/unit-of-work';
import { EventDeleter, EventsRepository, EventWriter } from '../../../src/events';
import { ImportedRecordsRepository, ImportRecordError, ImportWriter, LocalRecords } from '../../../src/imports';
import { ORGANIZER_TOKENS, OrganizersRepository } from '../../../src/organizers';
import { PostsService } from '../../../src/posts';
import { TermsService } from '../../../src/taxonomies';
import { UsersService } from '../../../src/users';
import { VENUE_TOKENS, VenuesRepository } from '../../../src/venues';
import { createTestApp, TestApp } from '../../support/test-app';
import { http, API } from '../../support/http';
import { readEvent } from '../../support/api';

const SOURCE = 'test https://source.example/wp-json/tribe/events/v1';

describe('import scaffold: ImportWriter', () => {
  let t: TestApp;
  let writer: ImportWriter;
  let records: ImportedRecordsRepository;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('importer', 'administrator')).authorization;
    const get = <T>(type: new (...args: never[]) => T) => t.app.get(type, { strict: false });
    const local = new LocalRecords(
      get(EventWriter),
      t.app.get(VENUE_TOKENS.writes, { strict: false }),
      t.app.get(ORGANIZER_TOKENS.writes, { strict: false }),
      get(TermsService),
      get(PostsService),
      get(EventsRepository),
      get(VenuesRepository),
      get(OrganizersRepository),
    );
    records = new ImportedRecordsRepository(get(DataSource));
    writer = new ImportWriter(local, records, get(UnitOfWork), get(UsersService), get(TermsService), get(EventsRepository), get(EventDeleter));
  });
  afterAll(() => t.close());

  it('imports as the first administrator unless a login is named, and refuses an unknown login', async () => {
    expect((await writer.importingUser()).login).toBe('importer');
    await expect(writer.importingUser('nobody')).rejects.toThrow(ImportRecordError);
  });

  it('creates, leaves an unchanged version alone, updates a new version, with the mapping', async () => {
    const actor = await writer.importingUser();
    const target = { source: SOURCE, kind: 'category' as const, key: '17', version: null };
    const first = await writer.put(actor, { ...target, version: 'v1' }, { name: 'Music', slug: 'music-x' });
    expect(first.result).toBe('created');
    expect(await records.find(SOURCE, 'category', '17')).toEqual({ localId: first.localId, version: 'v1' });

    expect(await writer.put(actor, { ...target, version: 'v1' }, { name: 'Music', slug: 'music-x' })).toEqual({ result: 'unchanged', localId: first.localId });
    expect(await writer.put(actor, { ...target, version: 'v2' }, { name: 'Live music', slug: 'music-x' })).toEqual({
      result: 'updated',
      localId: first.localId,
    });
    const res = await http(t).get(`${API}/categories/${first.localId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Live music', slug: 'music-x' });
  });

  it('keeps the source modified_utc (import-only) and writes the event through the event rules', async () => {
    const actor = await writer.importingUser();
    const out = await writer.put(
      actor,
      { source: SOURCE, kind: 'event', key: 'source.example?id=5', version: '2024-01-02 03:04:05' },
      {
        title: 'Imported <b>x</b>',
        start_date: '2030-05-01 10:00:00',
        end_date: '2030-05-01 11:00:00',
        timezone: 'Europe/Rome',
        status: 'draft',
        date_utc: '2024-01-01 00:00:00',
      },
      { modifiedUtc: '2024-01-02 03:04:05' },
    );
    expect(out.result).toBe('created');
    const event = await readEvent(t, out.localId, admin);
    expect(event).toMatchObject({
      modified_utc: '2024-01-02 03:04:05',
      date_utc: '2024-01-01 00:00:00',
      status: 'draft',
      timezone: 'Europe/Rome',
      utc_start_date: '2030-05-01 08:00:00',
    });
    // An administrator may write HTML (unfiltered_html), as through the route; the slug comes from the title.
    expect(event.slug).toMatch(/^imported-/);
  });

  it('a dry run decides without writing', async () => {
    const actor = await writer.importingUser();
    const out = await writer.put(actor, { source: SOURCE, kind: 'tag', key: '99', version: 'v1' }, { name: 'Dry' }, { dryRun: true });
    expect(out).toEqual({ result: 'created', localId: 0 });
    expect(await records.find(SOURCE, 'tag', '99')).toBeNull();
  });

  it('input a route would refuse is an ImportRecordError with the route message, and nothing is mapped', async () => {
    const actor = await writer.importingUser();
    const target = { source: SOURCE, kind: 'event' as const, key: 'bad', version: 'v1' };
    await expect(writer.put(actor, target, { title: 'No dates' })).rejects.toThrow(/start_date/);
    await expect(
      writer.put(actor, target, { title: 'Bad zone', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', timezone: 'Mars/Base' }),
    ).rejects.toThrow(ImportRecordError);
    expect(await records.find(SOURCE, 'event', 'bad')).toBeNull();
  });

  it('a mapped record deleted locally is created again and the mapping moves to it', async () => {
    const actor = await writer.importingUser();
    const target = { source: SOURCE, kind: 'venue' as const, key: 'source.example?id=8', version: 'v1' };
    const first = await writer.put(actor, target, { venue: 'Hall', city: 'Turin' });
    expect((await http(t, admin).delete(`${API}/venues/${first.localId}?force=true`)).status).toBe(200);
    const again = await writer.put(actor, target, { venue: 'Hall', city: 'Turin' });
    expect(again.result).toBe('created');
    expect(again.localId).not.toBe(first.localId);
    expect(await records.find(SOURCE, 'venue', target.key)).toEqual({ localId: again.localId, version: 'v1' });
  });
});
