// EventWrites.createMany against as many EventWrites.create calls: two apps on
// fresh databases get the same setup, one writes a list of events in one batch, the other one
// by one, each in one unit of work; their answers over HTTP (events, terms and their counts, the
// change feed) must be the same. The list shares its links and terms as a series' occurrences
// do, and its slugs collide with a stored event and with each other.
import type { Actor } from '../../../src/common/auth';
import { UnitOfWork } from '../../../src/database/unit-of-work';
import { EventWriter, EventWrites } from '../../../src/events';
import { createEvent, createOrganizer, createVenue } from '../../support/api';
import { changePages } from '../../support/changes';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;

/** Fields that tell when a row was written, not what it holds. */
const WRITE_TIMES = ['modified', 'modified_utc', 'date', 'date_utc'];

interface Side {
  t: TestApp;
  admin: string;
  actor: Actor;
  links: Json;
}

async function side(): Promise<Side> {
  const t = await createTestApp();
  const { id, authorization: admin } = await t.userHeader('admin', 'administrator');
  const venue = await createVenue(t, admin, { venue: 'Hall' });
  const ann = await createOrganizer(t, admin, { organizer: 'Ann' });
  const bob = await createOrganizer(t, admin, { organizer: 'Bob' });
  // A stored event takes the second input's slug, and one that makes `Sport` counted once.
  await createEvent(t, admin, { title: 'Taken', slug: 'class-2027-01-19', categories: ['Sport'] });
  return {
    t,
    admin,
    actor: { id, login: 'admin', role: 'administrator' },
    links: { venue: venue.id, organizer: [ann.id, bob.id, ann.id], categories: ['Sport', 'Dance'], tags: ['weekly'] },
  };
}

/** Four weekly inputs sharing their links; two ask for the taken slug, one is a draft (not counted). */
function inputs(links: Json, extra: Json = {}): Json[] {
  return ['2027-01-12', '2027-01-19', '2027-01-19', '2027-01-26'].map((day, i) => ({
    title: 'Class',
    description: '<p>Bring a mat</p>',
    start_date: `${day} 19:00:00`,
    end_date: `${day} 20:00:00`,
    timezone: 'Europe/Paris',
    slug: `class-${day}`,
    status: i === 3 ? 'draft' : 'publish',
    ...links,
    ...(i === 2 ? extra : {}),
  }));
}

/** What the side shows over HTTP: its events, categories, tags (with counts) and change feed, write times aside. */
async function shown(s: Side, since: string): Promise<Json> {
  const list = async (path: string) => {
    const res = await http(s.t, s.admin).get(`${API}/${path}`);
    expectStatus(res, 200);
    return res.body as Json;
  };
  const events = (await list('events?per_page=50&status=publish,draft&start_date=2000-01-01&end_date=2099-12-31')).events as Json[];
  const changes = [];
  for await (const page of changePages(s.t, since, s.admin)) changes.push(...page.changes.map((c) => ({ type: c.type, id: c.id, action: c.action })));
  return {
    events: withoutWriteTimes(events),
    categories: withoutWriteTimes(await list('categories?per_page=50')),
    tags: withoutWriteTimes(await list('tags?per_page=50')),
    changes,
  };
}

/** `value` without WRITE_TIMES at any depth (the embedded venue and organizers carry theirs). */
function withoutWriteTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWriteTimes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !WRITE_TIMES.includes(k))
      .map(([k, v]) => [k, withoutWriteTimes(v)]),
  );
}

async function feedEnd(s: Side): Promise<string> {
  let token = '';
  for await (const page of changePages(s.t, undefined, s.admin)) token = page.next_sync_token;
  return token;
}

describe('EventWrites.createMany is as many creates', () => {
  let batch: Side;
  let single: Side;

  beforeAll(async () => {
    batch = await side();
    single = await side();
  });
  afterAll(async () => {
    await batch?.t.close();
    await single?.t.close();
  });

  const writeBatch = (list: Json[]) =>
    batch.t.app.get(UnitOfWork).run((tx, changes) => batch.t.app.get(EventWrites).createMany(tx, changes, batch.actor, list));
  const writeOneByOne = (list: Json[]) =>
    single.t.app.get(UnitOfWork).run(async (tx, changes) => {
      const writes = single.t.app.get(EventWrites);
      const made = [];
      for (const input of list) made.push(await writes.create(tx, changes, single.actor, input));
      return made;
    });

  it('writes the same events, slugs, links, terms, counts and change feed entries', async () => {
    const since = [await feedEnd(batch), await feedEnd(single)];
    // The batch path, not one create after another.
    const oneByOne = jest.spyOn(batch.t.app.get(EventWriter), 'createIn');
    const made = await writeBatch(inputs(batch.links));
    expect(oneByOne).not.toHaveBeenCalled();
    const one = await writeOneByOne(inputs(single.links));
    expect(made.map((e) => e.slug)).toEqual(['class-2027-01-12', 'class-2027-01-19-2', 'class-2027-01-19-3', 'class-2027-01-26']);
    expect(made.map((e) => e.slug)).toEqual(one.map((e) => e.slug));
    const [a, b] = [await shown(batch, since[0]), await shown(single, since[1])];
    expect(a).toEqual(b);
    // Not vacuous: the batch's events are listed with their links, and the terms counted.
    const events = a.events as Json[];
    expect(events.filter((e) => e.title === 'Class')).toHaveLength(4);
    const sport = ((a.categories as Json).categories as Json[]).find((c) => c.name === 'Sport');
    expect(sport?.count).toBe(4);
    expect((a.changes as Json[]).filter((c) => c.type === 'event')).toHaveLength(4);
  });

  it('refuses a list with one bad input as create refuses it, and writes none of it', async () => {
    const before = await feedEnd(batch);
    const refusal = async (write: () => Promise<unknown>) => {
      try {
        await write();
      } catch (e) {
        return e as { code: string; status: number; data: { params: Record<string, string> } };
      }
      throw new Error('written');
    };
    const badBatch = await refusal(() => writeBatch(inputs(batch.links, { start_date: 'not a date' })));
    const badSingle = await refusal(() => writeOneByOne(inputs(single.links, { start_date: 'not a date' })));
    expect(badBatch).toEqual(badSingle);
    expect(badBatch.data.params).toHaveProperty('start_date');
    const feed = [];
    for await (const page of changePages(batch.t, before, batch.admin)) feed.push(...page.changes);
    expect(feed).toEqual([]);
  });
});
