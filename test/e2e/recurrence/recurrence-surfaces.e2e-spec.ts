// Recurring events beyond the JSON routes (recurrence.md §1, §3 horizon, §6): the module off and
// on again over the same data, the horizon extended at start and by several instances at once,
// events.ics giving each series once, and the occurrence's public page.
import ICAL from 'ical.js';
import { EventBody, uid } from '../../support/api';
import { expectError, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { servedDocument } from '../../support/openapi';
import { createTestApp, TestApp } from '../../support/test-app';
import { HorizonExtender } from '../../../src/recurrence/horizon-extender';

type Occurrence = EventBody & { recurrence?: string[]; series?: { id: number; detached: boolean } | null };

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

describe('recurrence.md §6: iCalendar and pages', () => {
  let t: TestApp;
  let admin: string;
  let all: Occurrence[];
  const title = uid('ics');

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' });
    admin = await adminOf(t);
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({ title, ...WEEKLY, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] });
    expectStatus(res, 201);
    all = (await http(t, admin).get(`${API}/events/${res.body.id}/occurrences`)).body.events;
    expectStatus(await http(t, admin).delete(`${API}/events/${all[1].id}`), 200); // EXDATE
    expectStatus(
      await http(t, admin)
        .post(`${API}/events/${all[2].id}`)
        .send({ title: `${title} moved`, start_date: '2027-01-26 21:00:00', end_date: '2027-01-26 22:00:00' }),
      200,
    );
  });
  afterAll(async () => t.close());

  const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');

  it('events.ics gives the series once with its rule lines, plus a RECURRENCE-ID VEVENT for the detached occurrence', async () => {
    const res = await http(t).get(`${API}/events.ics?search=${title}&${ALL}`);
    expectStatus(res, 200);
    const events = vevents(res.text);
    expect(events.length).toBe(2);
    const [series, detached] = events[0].hasProperty('recurrence-id') ? [events[1], events[0]] : [events[0], events[1]];
    const uidOf = (v: ICAL.Component) => String(v.getFirstPropertyValue('uid'));
    expect(uidOf(series)).toBe(all[0].global_id);
    expect(uidOf(detached)).toBe(all[0].global_id);
    expect(String(series.getFirstPropertyValue('rrule'))).toBe('FREQ=WEEKLY;COUNT=4');
    expect((series.getFirstPropertyValue('exdate') as ICAL.Time).toString()).toBe('2027-01-19T18:00:00Z');
    expect((detached.getFirstPropertyValue('recurrence-id') as ICAL.Time).toString()).toBe('2027-01-26T18:00:00Z');
    expect(String(detached.getFirstPropertyValue('summary'))).toBe(`${title} moved`);
    // The series is in the feed when one of its occurrences would be, even when the first is not.
    const late = vevents((await http(t).get(`${API}/events.ics?search=${title}&start_date=2027-02-01&end_date=2027-02-28`)).text);
    expect(late.map((v) => [String(v.getFirstPropertyValue('uid')), v.hasProperty('rrule')])).toEqual([[all[0].global_id, true]]);
  });

  it('events/{id}.ics of an occurrence gives that occurrence alone', async () => {
    const res = await http(t).get(`${API}/events/${all[3].id}.ics`);
    expectStatus(res, 200);
    const events = vevents(res.text);
    expect(events.map((v) => [String(v.getFirstPropertyValue('uid')), v.hasProperty('rrule')])).toEqual([[all[3].global_id, false]]);
  });

  it("an occurrence's page says how it repeats and links the next occurrences", async () => {
    const res = await http(t).get(`/event/${all[0].slug}/`);
    expectStatus(res, 200);
    expect(res.text).toContain('Every Tuesday, 4 times');
    expect(res.text).toContain(`href="${all[2].url}"`);
    expect(res.text).toContain(`href="${all[3].url}"`);
    expect(res.text).not.toContain(`href="${all[1].url}"`); // in the trash
  });
});

describe('recurrence.md §6: OpenAPI', () => {
  interface Doc {
    paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  }
  const documentOf = async (env: Record<string, string>): Promise<Doc> => {
    const t = await createTestApp({ ...env, CALENDAR_RECURRENCE_POLL_SECONDS: '0' });
    try {
      return await servedDocument<Doc>(t);
    } finally {
      await t.close();
    }
  };
  const summary = (doc: Doc) => {
    const params = (path: string, method: string) => (doc.paths[path]?.[method]?.parameters ?? []).map((p) => p.name);
    const body = (path: string, method: string) => {
      const ref = Object.values(doc.paths[path][method].requestBody!.content)[0].schema.$ref.split('/').pop()!;
      return Object.keys(doc.components.schemas[ref].properties ?? {});
    };
    return {
      event: ['recurrence', 'series'].filter((k) => k in (doc.components.schemas.Event.properties ?? {})),
      list: ['series', 'hide_subsequent_recurrences'].filter((p) => params('/events', 'get').includes(p)),
      update: params('/events/{id}', 'post').includes('scope'),
      remove: params('/events/by-slug/{slug}', 'delete').includes('scope'),
      createBody: ['recurrence', 'scope'].filter((k) => body('/events', 'post').includes(k)),
      updateBody: ['recurrence', 'scope'].filter((k) => body('/events/{id}', 'patch').includes(k)),
      route: '/events/{id}/occurrences' in doc.paths,
    };
  };

  it('documents recurrence, series, scope, the list parameters and /occurrences when the module is on, and none of them when off', async () => {
    expect(summary(await documentOf({ CALENDAR_RECURRENCE: 'on' }))).toEqual({
      event: ['recurrence', 'series'],
      list: ['series', 'hide_subsequent_recurrences'],
      update: true,
      remove: true,
      createBody: ['recurrence'],
      updateBody: ['recurrence', 'scope'],
      route: true,
    });
    expect(summary(await documentOf({ CALENDAR_RECURRENCE: 'off' }))).toEqual({
      event: [],
      list: [],
      update: false,
      remove: false,
      createBody: [],
      updateBody: [],
      route: false,
    });
  });
});
