// Recurring events (recurrence.md §2–§5) with CALENDAR_RECURRENCE=on, over HTTP on a real
// database: the rule field and its errors, occurrences and their ids, writes with `scope`, and
// the series' list parameters and route. §1 (module off), §6 (iCalendar, pages) and several
// instances are in recurrence-surfaces.e2e-spec.ts.
import type { Response } from 'supertest';
import { EventBody, uid } from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';
import { CORE_EVENT_KEYS } from '../../support/events';

interface Series {
  id: number;
  rest_url: string;
  original_start: string;
  utc_original_start: string;
  detached: boolean;
}
type Occurrence = EventBody & { recurrence: string[]; series: Series | null };

const ALL = 'start_date=2000-01-01&end_date=2099-12-31';

describe('recurring events (recurrence.md, module on)', () => {
  let t: TestApp;
  let admin: string;
  let author: { id: number; authorization: string };
  let editor: string;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_MAX: '200' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
    editor = (await t.userHeader('editor', 'editor')).authorization;
    author = await t.userHeader('author', 'author');
  });
  afterAll(async () => t.close());

  const create = (body: Record<string, unknown>, as = admin) => http(t, as).post(`${API}/events`).send(body);
  const update = (id: number, body: Record<string, unknown>, as = admin) => http(t, as).post(`${API}/events/${id}`).send(body);
  const remove = (id: number, query: string, as = admin) => http(t, as).delete(`${API}/events/${id}?${query}`);
  const read = async (id: number): Promise<Occurrence> => {
    const res = await http(t, admin).get(`${API}/events/${id}`);
    expectStatus(res, 200);
    return res.body as Occurrence;
  };
  /** Every occurrence of the series, oldest first, any status the admin sees. */
  const occurrences = async (id: number, status = 'publish,draft,pending,future,private'): Promise<Occurrence[]> => {
    const res = await http(t, admin).get(`${API}/events/${id}/occurrences?per_page=100&status=${status}`);
    expectStatus(res, 200);
    return res.body.events as Occurrence[];
  };
  const series = async (body: Record<string, unknown>): Promise<Occurrence> => {
    const res = await create({ title: uid('yoga'), ...body });
    expectStatus(res, 201);
    return res.body as Occurrence;
  };
  const weekly = (count: number, extra: Record<string, unknown> = {}) =>
    series({
      start_date: '2027-01-12 19:00:00',
      end_date: '2027-01-12 20:00:00',
      timezone: 'Europe/Paris',
      recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`],
      ...extra,
    });

  describe('§2 the rule', () => {
    it.each([
      ['a line that does not parse', ['FREQ=WEEKLY']],
      ['a second RRULE', ['RRULE:FREQ=WEEKLY;COUNT=2', 'RRULE:FREQ=DAILY;COUNT=2']],
      ['FREQ=HOURLY', ['RRULE:FREQ=HOURLY;COUNT=3']],
      ['FREQ=MINUTELY', ['RRULE:FREQ=MINUTELY;COUNT=3']],
      ['no FREQ', ['RRULE:COUNT=3']],
      ['COUNT and UNTIL', ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270201T000000Z']],
      ['no occurrence at all', ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'EXDATE:20270112T190000']],
      ['more than CALENDAR_RECURRENCE_MAX', ['RRULE:FREQ=DAILY;COUNT=201']],
      ['not an array of strings', 'RRULE:FREQ=DAILY'],
    ])('400 rest_invalid_param naming recurrence for %s, and nothing is written', async (_what, recurrence) => {
      const title = uid('bad');
      const res = await create({ title, start_date: '2027-01-12 19:00:00', end_date: '2027-01-12 20:00:00', recurrence });
      expectInvalidParams(res, 'recurrence');
      expect(typeof res.body.data.params.recurrence).toBe('string');
      const listed = await http(t, admin).get(`${API}/events?search=${title}&${ALL}`);
      expect(listed.body.events ?? []).toEqual([]);
    });

    it('is evaluated in the event zone: a weekly 19:00 in Europe/Paris stays at 19:00 across DST, its UTC start moves', async () => {
      const first = await series({
        start_date: '2027-03-23 19:00:00',
        end_date: '2027-03-23 20:30:00',
        timezone: 'Europe/Paris',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      });
      const all = await occurrences(first.id);
      expect(all.map((o) => [o.start_date, o.utc_start_date, o.end_date])).toEqual([
        ['2027-03-23 19:00:00', '2027-03-23 18:00:00', '2027-03-23 20:30:00'],
        ['2027-03-30 19:00:00', '2027-03-30 17:00:00', '2027-03-30 20:30:00'],
        ['2027-04-06 19:00:00', '2027-04-06 17:00:00', '2027-04-06 20:30:00'],
      ]);
    });

    it.each([
      [
        'America/New_York, across the November change',
        '2027-11-06 09:00:00',
        'RRULE:FREQ=DAILY;COUNT=3',
        ['2027-11-06 13:00:00', '2027-11-07 14:00:00', '2027-11-08 14:00:00'],
      ],
      ['Australia/Lord_Howe (half-hour DST), across April', '2027-04-03 18:00:00', 'RRULE:FREQ=DAILY;COUNT=2', ['2027-04-03 07:00:00', '2027-04-04 07:30:00']],
    ])('%s', async (zone, start, rule, utcStarts) => {
      const first = await series({ start_date: start, end_date: start, timezone: zone.split(/[ ,]/)[0], recurrence: [rule] });
      expect((await occurrences(first.id)).map((o) => o.utc_start_date)).toEqual(utcStarts);
    });

    it.each([
      ['BYMONTHDAY=31 skips the shorter months', '2027-01-31 10:00:00', 'RRULE:FREQ=MONTHLY;COUNT=3;BYMONTHDAY=31', ['2027-01-31', '2027-03-31', '2027-05-31']],
      ['BYDAY=-1FR: the last Friday', '2027-01-29 10:00:00', 'RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=-1FR', ['2027-01-29', '2027-02-26', '2027-03-26']],
    ])('%s', async (_what, start, rule, days) => {
      const first = await series({ start_date: start, end_date: start, timezone: 'UTC', recurrence: [rule] });
      expect((await occurrences(first.id)).map((o) => o.start_date.slice(0, 10))).toEqual(days);
    });

    it('a leap day recurs on leap days only (the next one is past the horizon: made when the horizon reaches it)', async () => {
      const first = await series({
        start_date: '2028-02-29 10:00:00',
        end_date: '2028-02-29 11:00:00',
        timezone: 'UTC',
        recurrence: ['RRULE:FREQ=YEARLY;COUNT=2'],
      });
      expect((await occurrences(first.id)).map((o) => o.start_date.slice(0, 10))).toEqual(['2028-02-29']);
    });

    it('EXDATE removes and RDATE adds occurrences; the lines come back normalised', async () => {
      const first = await series({
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 20:00:00',
        timezone: 'Europe/Paris',
        recurrence: ['rrule:freq=weekly;until=20270202T235959', 'EXDATE:20270119T190000,20270126T190000', 'RDATE;VALUE=DATE:20270204'],
      });
      expect(first.recurrence).toEqual([
        'RRULE:FREQ=WEEKLY;UNTIL=20270202T225959Z',
        'RDATE;VALUE=DATE:20270204',
        'EXDATE:20270119T190000',
        'EXDATE:20270126T190000',
      ]);
      expect((await occurrences(first.id)).map((o) => o.start_date)).toEqual(['2027-01-12 19:00:00', '2027-02-02 19:00:00', '2027-02-04 19:00:00']);
    });

    it('an update giving recurrence to a single event makes it the first occurrence of a new series', async () => {
      const single = await series({ start_date: '2027-05-03 08:00:00', end_date: '2027-05-03 09:00:00' });
      expect(single.recurrence).toEqual([]);
      expect(single.series).toBeNull();
      const res = await update(single.id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      expectStatus(res, 200);
      expect(res.body.series).toMatchObject({ id: single.id, original_start: '2027-05-03 08:00:00', detached: false });
      expect((await occurrences(single.id)).map((o) => o.series?.id)).toEqual([single.id, single.id, single.id]);
    });

    it('recurrence with scope=this is 400; null means "not given"', async () => {
      const first = await weekly(2);
      const second = (await occurrences(first.id))[1];
      expectInvalidParams(await update(second.id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] }), 'recurrence');
      expectInvalidParams(await update(second.id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'], scope: 'this' }), 'recurrence');
      expectStatus(await update(second.id, { recurrence: null, title: 'renamed' }), 200);
    });

    it('scope other than this, following or all is 400', async () => {
      const first = await weekly(2);
      expectInvalidParams(await update(first.id, { title: 'x', scope: 'some' }), 'scope');
      expectInvalidParams(await remove(first.id, 'scope=some'), 'scope');
    });
  });

  describe('§3 occurrences', () => {
    it('POST answers 201 with the first occurrence, whose id is the series id; the others are full events with dated slugs', async () => {
      const title = uid('yoga');
      const res = await create({
        title,
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 20:00:00',
        timezone: 'Europe/Paris',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4'],
      });
      expectStatus(res, 201);
      const first = res.body as Occurrence;
      // "their slugs are the series' slug with the date" (§3): the first occurrence's too.
      expect(first.slug).toBe(`${title}-2027-01-12`);
      expect(first.series).toEqual({
        id: first.id,
        rest_url: `${t.baseUrl}${API}/events/${first.id}/occurrences`,
        original_start: '2027-01-12 19:00:00',
        utc_original_start: '2027-01-12 18:00:00',
        detached: false,
      });
      // After the core's keys, in this order (another extension's keys may follow; JSON-LD, when
      // shown, comes last of all).
      const keys = Object.keys(first).filter((k) => k !== 'json_ld');
      expect(keys.slice(0, CORE_EVENT_KEYS.length)).toEqual(CORE_EVENT_KEYS);
      expect(keys.slice(CORE_EVENT_KEYS.length).filter((k) => k === 'recurrence' || k === 'series')).toEqual(['recurrence', 'series']);
      const all = await occurrences(first.id);
      expect(all.map((o) => [o.slug, o.start_date, o.title, o.series?.id])).toEqual([
        [`${title}-2027-01-12`, '2027-01-12 19:00:00', title, first.id],
        [`${title}-2027-01-14`, '2027-01-14 19:00:00', title, first.id],
        [`${title}-2027-01-19`, '2027-01-19 19:00:00', title, first.id],
        [`${title}-2027-01-21`, '2027-01-21 19:00:00', title, first.id],
      ]);
      expect(new Set(all.map((o) => o.id)).size).toBe(4);
    });

    it('occurrences share the series fields: venue, organizers, categories, tags, cost, status and author', async () => {
      const first = await weekly(2, {
        venue: { venue: uid('hall') },
        organizer: [{ organizer: uid('org') }],
        categories: [uid('cat')],
        tags: [uid('tag')],
        cost: '12',
        status: 'draft',
        author: author.id,
      });
      const [a, b] = await occurrences(first.id);
      for (const field of ['venue', 'organizer', 'categories', 'tags', 'cost', 'status', 'author'] as const) {
        expect([field, JSON.stringify(b[field]).replace(/"id":\d+,?/g, '')]).toEqual([field, JSON.stringify(a[field]).replace(/"id":\d+,?/g, '')]);
      }
      expect((b.venue as { id: number }).id).toBe((a.venue as { id: number }).id);
    });

    it('JSON-LD: every occurrence but the first names the first one as superEvent', async () => {
      const first = await weekly(2);
      const [a, b] = await occurrences(first.id);
      expect((await read(a.id)).json_ld?.superEvent).toBeUndefined();
      expect((await read(b.id)).json_ld?.superEvent).toBe(a.url);
    });

    it('the series id stays its key after its first occurrence is deleted for good', async () => {
      const first = await weekly(3);
      expectStatus(await remove(first.id, 'force=true'), 200);
      const rest = await occurrences(first.id);
      expect(rest.map((o) => o.series?.id)).toEqual([first.id, first.id]);
      expect(rest[0].recurrence).toContain('EXDATE:20270112T190000');
    });
  });

  describe('§4 scope', () => {
    it('this (default): only the occurrence changes and becomes detached', async () => {
      const first = await weekly(3);
      const [, b, c] = await occurrences(first.id);
      const res = await update(b.id, { title: 'Alone', start_date: '2027-01-19 21:00:00', end_date: '2027-01-19 22:00:00' });
      expectStatus(res, 200);
      expect(res.body.series).toMatchObject({ original_start: '2027-01-19 19:00:00', detached: true });
      expect((await read(c.id)).title).toBe(first.title);
      // A later series edit leaves the detached occurrence's fields alone.
      expectStatus(await update(first.id, { title: 'Everyone', scope: 'all' }), 200);
      expect((await occurrences(first.id)).map((o) => o.title)).toEqual(['Everyone', 'Alone', 'Everyone']);
    });

    it('all with a new time of day keeps every id and slug; original_start follows the new rule', async () => {
      const first = await weekly(3);
      const before = await occurrences(first.id);
      const res = await update(before[1].id, { start_date: '2027-01-19 20:00:00', end_date: '2027-01-19 21:30:00', scope: 'all' });
      expectStatus(res, 200);
      const after = await occurrences(first.id);
      expect(after.map((o) => [o.id, o.slug, o.start_date, o.end_date, o.series?.original_start])).toEqual(
        before.map((o) => [
          o.id,
          o.slug,
          o.start_date.replace('19:00', '20:00'),
          o.end_date.replace('20:00:00', '21:30:00'),
          o.start_date.replace('19:00', '20:00'),
        ]),
      );
    });

    it('all with a shorter rule trashes the occurrences whose date no longer comes out, and makes new ones', async () => {
      const first = await weekly(3);
      const before = await occurrences(first.id);
      const res = await update(first.id, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE:20270128T190000'], scope: 'all' });
      expectStatus(res, 200);
      const after = await occurrences(first.id);
      expect(after.map((o) => o.start_date)).toEqual(['2027-01-12 19:00:00', '2027-01-19 19:00:00', '2027-01-28 19:00:00']);
      expect(after.slice(0, 2).map((o) => o.id)).toEqual(before.slice(0, 2).map((o) => o.id));
      expect((await http(t, admin).get(`${API}/events/${before[2].id}`)).body.code).toBe('event-no-longer-available');
    });

    it('following: the series is cut before the occurrence, which heads a new series with the later ones', async () => {
      const first = await weekly(4);
      const [a, b, c, d] = await occurrences(first.id);
      const res = await update(c.id, { title: 'Second half', scope: 'following' });
      expectStatus(res, 200);
      expect(res.body.series).toMatchObject({ id: c.id });
      expect((await occurrences(first.id)).map((o) => o.id)).toEqual([a.id, b.id]);
      expect((await read(a.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270126T175959Z']);
      const later = await occurrences(c.id);
      expect(later.map((o) => [o.id, o.title])).toEqual([
        [c.id, 'Second half'],
        [d.id, 'Second half'],
      ]);
      expect(later[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=2']);
    });

    it('"recurrence": [] with scope=all ends the series: the addressed occurrence stays single, the others go to the trash', async () => {
      const first = await weekly(3);
      const [a, b, c] = await occurrences(first.id);
      const res = await update(b.id, { recurrence: [], scope: 'all' });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ recurrence: [], series: null, status: 'publish' });
      for (const gone of [a, c]) expect((await http(t, admin).get(`${API}/events/${gone.id}`)).body.code).toBe('event-no-longer-available');
    });

    it('delete this: to the trash with an EXDATE; restoring it removes the EXDATE', async () => {
      const first = await weekly(3);
      const [, b] = await occurrences(first.id);
      expectStatus(await remove(b.id, ''), 200);
      expect((await read(first.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270119T190000']);
      expectStatus(await update(b.id, { status: 'publish' }), 200);
      expect((await read(first.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
      expect((await read(b.id)).series).toMatchObject({ id: first.id, detached: false });
    });

    it('delete following: this and every later occurrence; the rule gets an UNTIL', async () => {
      const first = await weekly(4);
      const [a, b, c, d] = await occurrences(first.id);
      expectStatus(await remove(c.id, 'scope=following'), 200);
      expect((await occurrences(first.id, 'publish')).map((o) => o.id)).toEqual([a.id, b.id]);
      for (const gone of [c, d]) expect((await http(t, admin).get(`${API}/events/${gone.id}`)).body.code).toBe('event-no-longer-available');
      expect((await read(a.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270126T175959Z']);
    });

    it('delete all for good: every occurrence is gone', async () => {
      const first = await weekly(3);
      const all = await occurrences(first.id);
      expectStatus(await remove(all[1].id, 'scope=all&force=true'), 200);
      for (const o of all) expectError(await http(t, admin).get(`${API}/events/${o.id}`), 404, 'rest-event-not-found');
    });

    it('scope is taken from the query string too', async () => {
      const first = await weekly(2);
      const res = await http(t, admin).post(`${API}/events/${first.id}?scope=all`).send({ title: 'From the query' });
      expectStatus(res, 200);
      expect((await occurrences(first.id)).map((o) => o.title)).toEqual(['From the query', 'From the query']);
    });

    it('rights: when one occurrence reached may not be changed by the caller, nothing changes (403)', async () => {
      const first = await weekly(3, { author: author.id, status: 'publish' });
      const [a, b, c] = await occurrences(first.id);
      // An editor gives one occurrence to someone else (it is detached then): the author may not delete that one.
      expectStatus(await update(b.id, { author: (await t.userHeader(uid('other'), 'author')).id }, editor), 200);
      const refused = await remove(a.id, 'scope=all', author.authorization);
      expect(refused.status).toBe(403);
      expect((await occurrences(first.id, 'publish')).map((o) => o.id)).toEqual([a.id, b.id, c.id]);
      // A rule that drops the other author's date would trash it: refused as well, and the series keeps its rule.
      const moved = await update(a.id, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270119T190000'], scope: 'all' }, author.authorization);
      expect(moved.status).toBe(403);
      expect((await read(a.id)).recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
    });

    it('If-Match applies to the addressed occurrence', async () => {
      const first = await weekly(2);
      const res = await http(t, admin).post(`${API}/events/${first.id}`).set('If-Match', '"stale"').send({ title: 'x', scope: 'all' });
      expect(res.status).toBe(412);
      expect((await occurrences(first.id)).map((o) => o.title)).toEqual([first.title, first.title]);
    });
  });

  describe('§5 reading series', () => {
    let first: Occurrence;
    let all: Occurrence[];
    let single: Occurrence;
    beforeAll(async () => {
      first = await weekly(3, { title: uid('read') });
      all = await occurrences(first.id);
      single = await series({ title: `${first.title} single`, start_date: '2027-01-13 10:00:00', end_date: '2027-01-13 11:00:00' });
    });

    it('GET /events lists each occurrence like any event', async () => {
      const res = await http(t).get(`${API}/events?search=${first.title}&${ALL}`);
      expect(res.body.events.map((e: EventBody) => e.id)).toEqual([all[0].id, single.id, all[1].id, all[2].id]);
    });

    it('series={id} lists only that series', async () => {
      const res = await http(t).get(`${API}/events?series=${first.id}&${ALL}`);
      expect(res.body.events.map((e: EventBody) => e.id)).toEqual(all.map((o) => o.id));
      expect(res.body.rest_url).toContain(`series=${first.id}`);
      expectInvalidParams(await http(t).get(`${API}/events?series=abc`), 'series');
    });

    it('hide_subsequent_recurrences=true lists only the first occurrence the query would list; X-TEC-Total counts what is listed', async () => {
      const res: Response = await http(t).get(`${API}/events?search=${first.title}&hide_subsequent_recurrences=true&${ALL}`);
      expect(res.body.events.map((e: EventBody) => e.id)).toEqual([all[0].id, single.id]);
      expect(res.headers['x-tec-total']).toBe('2');
      const later = await http(t).get(`${API}/events?search=${first.title}&hide_subsequent_recurrences=1&start_date=2027-01-15&end_date=2099-12-31`);
      expect(later.body.events.map((e: EventBody) => e.id)).toEqual([all[1].id]);
      expectInvalidParams(await http(t).get(`${API}/events?hide_subsequent_recurrences=maybe`), 'hide_subsequent_recurrences');
    });

    it('GET /events/{id}/occurrences: the series in start order, from any occurrence, as a list envelope', async () => {
      const res = await http(t).get(`${API}/events/${all[2].id}/occurrences?per_page=2`);
      expectStatus(res, 200);
      expect(res.body.events.map((e: EventBody) => e.id)).toEqual([all[0].id, all[1].id]);
      expect(res.body).toMatchObject({ total: 3, total_pages: 2 });
      expect(typeof res.body.rest_url).toBe('string');
      const page2 = await http(t).get(`${API}/events/${first.id}/occurrences?per_page=2&page=2`);
      expect(page2.body.events.map((e: EventBody) => e.id)).toEqual([all[2].id]);
      const window = await http(t).get(`${API}/events/${first.id}/occurrences?start_date=2027-01-15&end_date=2027-01-22`);
      expect(window.body.events.map((e: EventBody) => e.id)).toEqual([all[1].id]);
    });

    it('404 rest_event_invalid_id for an id that is no event the caller may see', async () => {
      expectError(await http(t).get(`${API}/events/999999/occurrences`), 404, 'rest_event_invalid_id');
      const draft = await series({
        start_date: '2027-01-13 10:00:00',
        end_date: '2027-01-13 11:00:00',
        status: 'draft',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
      });
      expectError(await http(t).get(`${API}/events/${draft.id}/occurrences`), 404, 'rest_event_invalid_id');
      expectStatus(await http(t, admin).get(`${API}/events/${draft.id}/occurrences?status=draft`), 200);
    });
  });
});
