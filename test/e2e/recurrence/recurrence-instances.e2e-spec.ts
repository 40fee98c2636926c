// Recurring events on several instances of one database (a temporary SQLite file, or a database
// of TEST_DATABASE_URL's server): the module off on one and on again (recurrence.md §1), an
// occurrence trashed while it was off and the feed after it (§6), and the horizon extended by an
// instance with a further horizon, by two at once making each occurrence once (§3). In e2e-slow
// (jest.config.js): each test starts two to five apps.
import { EventBody, uid } from '../../support/api';
import { expectError, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { apiInstances, expectFeedAsApi, FEED_ENV, Listed, SERIES, WHOLE, ZONES } from '../../support/series-feed';
import { createTestApp, TestApp } from '../../support/test-app';
import { HorizonExtender } from '../../../src/recurrence/horizon-extender';

type Occurrence = EventBody & { recurrence?: string[]; series?: { id: number; detached: boolean } | null };

const ON = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' };
const ALL = 'start_date=2000-01-01&end_date=2099-12-31';
const WEEKLY = { start_date: '2027-01-12 19:00:00', end_date: '2027-01-12 20:00:00', timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] };

async function adminOf(t: TestApp): Promise<string> {
  return (await t.userHeader(uid('admin'), 'administrator')).authorization;
}

async function listed(t: TestApp, admin: string, query: string): Promise<Occurrence[]> {
  const res = await http(t, admin).get(`${API}/events?${query}&${ALL}`);
  expectStatus(res, 200);
  return res.body.events as Occurrence[];
}

/** `YYYY-MM-DD` of today + `days`, UTC. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('recurrence.md §1: the module off, and on again', () => {
  let on: TestApp;
  let off: TestApp;
  let close: () => Promise<void>;
  let admin: string;
  const title = uid('series');

  beforeAll(async () => {
    ({
      a: on,
      b: off,
      close,
    } = await twoInstances({ CALENDAR_RECURRENCE_POLL_SECONDS: '0' }, { a: { CALENDAR_RECURRENCE: 'on' }, b: { CALENDAR_RECURRENCE: 'off' } }));
    admin = (await on.userHeader('admin', 'administrator')).authorization;
    expectStatus(
      await http(on, admin)
        .post(`${API}/events`)
        .send({ title, ...WEEKLY }),
      201,
    );
  });
  afterAll(async () => close());

  it('off: recurrence and scope are ignored like unknown fields, and representations have neither key', async () => {
    const res = await http(off, admin)
      .post(`${API}/events`)
      .send({ title: `${title} off`, ...WEEKLY, scope: 'nonsense' });
    expectStatus(res, 201);
    expect(res.body).not.toHaveProperty('recurrence');
    expect(res.body).not.toHaveProperty('series');
    expect((await listed(off, admin, `search=${title} off`)).length).toBe(1);
  });

  it('off: /events/{id}/occurrences is 404 rest_no_route; series and hide_subsequent_recurrences are ignored', async () => {
    const [first] = await listed(off, admin, `search=${title}`);
    expectError(await http(off).get(`${API}/events/${first.id}/occurrences`), 404, 'rest_no_route');
    const plain = await listed(off, admin, `search=${title}`);
    expect(await listed(off, admin, `search=${title}&series=${first.id}&hide_subsequent_recurrences=true`)).toEqual(plain);
    expect(await listed(off, admin, `search=${title}&series=abc`)).toEqual(plain);
  });

  it('off: occurrences made while it was on are plain events; on again, their series is back', async () => {
    const ofSeries = (events: Occurrence[]) => events.filter((e) => e.title !== `${title} off`);
    const plain = ofSeries(await listed(off, admin, `search=${title}&hide_subsequent_recurrences=1`));
    expect(plain.map((e) => e.start_date)).toEqual(['2027-01-12 19:00:00', '2027-01-19 19:00:00', '2027-01-26 19:00:00']);
    expect(plain.every((e) => !('series' in e))).toBe(true);
    // An edit while off changes that event alone; back on, it is still an occurrence of its series.
    expectStatus(await http(off, admin).post(`${API}/events/${plain[1].id}`).send({ title: 'edited while off', scope: 'all' }), 200);
    const back = await createTestApp({ CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' }, { sharing: on });
    try {
      expect(ofSeries(await listed(back, admin, `search=${title}&hide_subsequent_recurrences=1`)).map((e) => e.id)).toEqual([plain[0].id]);
      const series = await http(back, admin).get(`${API}/events/${plain[1].id}/occurrences`);
      expect(series.body.events.map((e: Occurrence) => [e.id, e.title, e.series?.id])).toEqual([
        [plain[0].id, title, plain[0].id],
        [plain[1].id, 'edited while off', plain[0].id],
        [plain[2].id, title, plain[0].id],
      ]);
    } finally {
      await back.close();
    }
  });
});

describe('recurrence.md §3: the horizon moves on, once for several instances', () => {
  it('an instance with a further horizon extends the open series at start and on its timer; two at once make each occurrence once', async () => {
    const { a, close } = await twoInstances({ CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0', CALENDAR_RECURRENCE_HORIZON_DAYS: '10' });
    const later: TestApp[] = [];
    try {
      // Two instances with a 40-day horizon, started before the series exists; then both tick at once.
      const env = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0', CALENDAR_RECURRENCE_HORIZON_DAYS: '40' };
      later.push(await createTestApp(env, { sharing: a }), await createTestApp(env, { sharing: a }));
      const admin = await adminOf(a);
      const title = uid('daily');
      const res = await http(a, admin)
        .post(`${API}/events`)
        .send({ title, start_date: `${day(1)} 10:00:00`, end_date: `${day(1)} 11:00:00`, timezone: 'UTC', recurrence: ['RRULE:FREQ=DAILY'] });
      expectStatus(res, 201);
      const days = async (t = a) => (await listed(t, admin, `series=${res.body.id}&per_page=100`)).map((e) => e.start_date.slice(0, 10));
      const before = await days();
      expect(before[0]).toBe(day(1));
      expect(before.length).toBeLessThanOrEqual(10);
      const made = await Promise.all(later.map((t) => t.app.get(HorizonExtender).tick()));
      // Read through a new instance: another sees the others' commits only at its next poll of the change log.
      later.push(await createTestApp({ ...env, CALENDAR_RECURRENCE_HORIZON_DAYS: '10' }, { sharing: a }));
      const after = await days(later[2]);
      expect(new Set(after).size).toBe(after.length);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.length).toBeGreaterThanOrEqual(38);
      expect(made[0] + made[1]).toBe(after.length - before.length);
      for (let i = 1; i < after.length; i++) expect(after[i]).toBe(new Date(Date.parse(`${after[i - 1]}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
      // Made already: a further tick makes nothing.
      expect(await later[0].app.get(HorizonExtender).tick()).toBe(0);
    } finally {
      for (const t of later.reverse()) await t.close();
      await close();
    }
  });
});

describe('recurrence.md §3: a thousand occurrences are written as any other series', () => {
  const hourly = Array.from({ length: 24 }, (_, h) => h).join(',');

  it('the horizon extender adds 999 and more occurrences to a series in one go', async () => {
    // Two instances on one database: one with a one-day horizon makes the series, the other's
    // extender (sixty days) adds the rest.
    const {
      a: short,
      b: long,
      close,
    } = await twoInstances(ON, { a: { CALENDAR_RECURRENCE_HORIZON_DAYS: '1' }, b: { CALENDAR_RECURRENCE_HORIZON_DAYS: '60' } });
    try {
      const shortAdmin = (await short.userHeader('admin', 'administrator')).authorization;
      const today = new Date().toISOString().slice(0, 10);
      const res = await http(short, shortAdmin)
        .post(`${API}/events`)
        .send({
          title: 'every hour',
          start_date: `${today} 00:00:00`,
          end_date: `${today} 00:20:00`,
          timezone: 'UTC',
          recurrence: [`RRULE:FREQ=DAILY;BYHOUR=${hourly}`],
        });
      expectStatus(res, 201);
      // 24 a day for the 59 more days: well past the 999 that once broke SQLite's expression depth.
      const made = await long.app.get(HorizonExtender).tick();
      expect(made).toBeGreaterThan(1400);
      const all = await http(long, shortAdmin).get(`${API}/events/${res.body.id}/occurrences?per_page=1`);
      expect(Number(all.body.total)).toBeGreaterThan(1400);
    } finally {
      await close();
    }
  });
});

describe('recurrence.md §6: an occurrence trashed while the module was off is not in the feed', () => {
  it.each(ZONES)('%s', async (timezone) => {
    const { a: on, b: off, close } = await twoInstances(FEED_ENV, { b: { CALENDAR_RECURRENCE: 'off' } });
    let reader: TestApp | undefined;
    try {
      const admin = (await on.userHeader(uid('admin'), 'administrator')).authorization;
      const res = await http(on, admin)
        .post(`${API}/events`)
        .send({ title: uid('weekly'), status: 'publish', timezone, ...SERIES });
      expectStatus(res, 201);
      const list = await http(on, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=50&page=2`);
      const [victim] = list.body.events as Listed[];
      expectStatus(await http(off, admin).delete(`${API}/events/${victim.id}`), 200);
      // Read through a new instance, which has every commit of the others.
      reader = await createTestApp(FEED_ENV, { sharing: on });
      expect((await apiInstances(reader, res.body.id, WHOLE)).map((i) => i.start)).not.toContain(victim.utc_start_date);
      await expectFeedAsApi(reader, res.body.id);
    } finally {
      await reader?.close();
      await close();
    }
  });
});
