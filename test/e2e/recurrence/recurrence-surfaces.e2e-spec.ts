// Recurring events beyond the JSON routes (recurrence.md §6): events.ics giving each series once,
// the occurrence's public page, and the OpenAPI document with the module on and off. The module
// off and on again over the same data, and the horizon extended by several instances at once,
// take several instances: recurrence-instances (e2e-slow).
import ICAL from 'ical.js';
import { EventBody, uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { servedDocument } from '../../support/openapi';
import { createTestApp, TestApp } from '../../support/test-app';

type Occurrence = EventBody & { recurrence?: string[]; series?: { id: number; detached: boolean } | null };

const ALL = 'start_date=2000-01-01&end_date=2099-12-31';
const WEEKLY = { start_date: '2027-01-12 19:00:00', end_date: '2027-01-12 20:00:00', timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] };

async function adminOf(t: TestApp): Promise<string> {
  return (await t.userHeader(uid('admin'), 'administrator')).authorization;
}

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
