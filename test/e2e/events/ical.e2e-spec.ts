// iCalendar export (spec ical.md, Export): events.ics with the list's filters and visibility,
// single events, Accept negotiation, and times that resolve to the API's utc_* dates.
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE } from '../../support/http';
import { Caller, createCategory, createEvent, createOrganizer, createVenue, EventBody, makeUsers, trashEvent, uid, updateEvent } from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';
import { sql } from '../../support/events';

const ICAL_TYPE = 'text/calendar; charset=utf-8';

/** The window of the fixed-date events below (the last ends in 2031): every test of them asks for it. */
const YEAR_2030 = 'start_date=2030-01-01&end_date=2031-01-31';

/** GET as text whatever the type (supertest reads text/calendar as text already; errors as JSON). */
const get = (t: TestApp, path: string, headers: Record<string, string> = {}, authorization?: string) => {
  const req = http(t, authorization).get(`${API}${path}`);
  for (const [name, value] of Object.entries(headers)) void req.set(name, value);
  return req;
};

/** A calendar answer: 200, its type and file name, CRLF line ends and lines of at most 75 octets. */
function expectIcal(res: Response, filename: string): string {
  expectStatus(res, 200);
  expect(res.headers['content-type']).toBe(ICAL_TYPE);
  expect(res.headers['content-disposition']).toBe(`inline; filename="${filename}"`);
  const text = res.text;
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const long = text.split('\r\n').filter((line) => Buffer.byteLength(line) > 75);
  expect(long).toEqual([]);
  return text;
}

interface ParsedFeed {
  root: ICAL.Component;
  /** VEVENTs by UID. */
  events: Map<string, ICAL.Component>;
}

/** Parses with ical.js, its VTIMEZONEs registered so that TZID times resolve. */
function parseFeed(text: string): ParsedFeed {
  const root = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const events = new Map(root.getAllSubcomponents('vevent').map((v) => [String(v.getFirstPropertyValue('uid')), v]));
  return { root, events };
}

/** A TEXT value as written (ical.js leaves X- properties escaped). */
const unescapeText = (text: string) => text.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
const uidsOf = (feed: ParsedFeed) => [...feed.events.keys()];
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, '');
const timeOf = (v: ICAL.Component, name: string) => v.getFirstPropertyValue(name) as ICAL.Time;
/** An ical.js time resolved to UTC, as the API writes UTC dates. */
const utcSql = (time: ICAL.Time) => sql(DateTime.fromSeconds(time.toUnixTime(), { zone: 'utc' }));

/** Every event of `feed` against the JSON list's: the same set, each time resolving to utc_start_date/utc_end_date. */
function expectSameTimes(feed: ParsedFeed, listed: EventBody[]): void {
  expect(uidsOf(feed).sort()).toEqual(listed.map((e) => e.global_id as string).sort());
  for (const e of listed) {
    const v = feed.events.get(e.global_id as string)!;
    const [start, end] = [timeOf(v, 'dtstart'), timeOf(v, 'dtend')];
    if (e.all_day) {
      expect({ start: start.isDate, end: end.isDate }).toEqual({ start: true, end: true });
      expect(start.toString()).toBe(e.start_date.slice(0, 10));
      expect(end.toString()).toBe(DateTime.fromSQL(e.end_date).plus({ days: 1 }).toISODate());
    } else {
      expect({ id: e.id, start: utcSql(start), end: utcSql(end) }).toEqual({ id: e.id, start: e.utc_start_date, end: e.utc_end_date });
    }
  }
}

async function listed(t: TestApp, query: string, authorization?: string): Promise<EventBody[]> {
  const res = await get(t, `/events?${query}&per_page=50`, {}, authorization);
  expectStatus(res, 200);
  return res.body.events;
}

describe('iCalendar export (ical.md)', () => {
  let t: TestApp;
  let admin: Caller;
  let author: Caller;
  const tok = uid('ics');
  /** The fixed-date events, by name. */
  const ev: Record<string, EventBody> = {};
  let music: { id: number; name: string };
  let venue: { id: number };

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_GEO: 'on', CALENDAR_SITE_TITLE: 'Jazz, Blues; and more' });
    ({ admin, author } = await makeUsers(t));
    const as = admin.authorization;
    music = await createCategory(t, as, { name: `Music ${tok}` });
    venue = await createVenue(t, as, {
      venue: 'Blue Note',
      address: '131 W 3rd St',
      city: 'New York',
      state: 'NY',
      zip: '10012',
      country: 'United States',
      geo_lat: 40.7308,
      geo_lng: -73.9999,
    });
    const organizer = await createOrganizer(t, as, { organizer: 'Ann Lee', email: 'ann@example.org' });
    const make = async (name: string, fields: Record<string, unknown>) => {
      ev[name] = await createEvent(t, as, { title: `${name} ${tok}`, ...fields });
    };
    // New York, across the March change (02:00 → 03:00 on 10 March 2030) and the November one.
    await make('nyMarch', { timezone: 'America/New_York', start_date: '2030-03-09 22:00:00', end_date: '2030-03-10 04:00:00' });
    await make('nyNovember', { timezone: 'America/New_York', start_date: '2030-11-02 20:00:00', end_date: '2030-11-03 03:00:00' });
    await make('londonWinter', { timezone: 'Europe/London', start_date: '2030-01-15 19:00:00', end_date: '2030-01-15 21:00:00' });
    await make('londonSummer', { timezone: 'Europe/London', start_date: '2030-07-01 19:00:00', end_date: '2030-07-01 21:00:00' });
    // Sydney leaves summer time at 03:00 on 7 April 2030.
    await make('sydney', { timezone: 'Australia/Sydney', start_date: '2030-04-06 20:00:00', end_date: '2030-04-07 10:00:00' });
    await make('kolkata', { timezone: 'Asia/Kolkata', start_date: '2030-05-05 09:00:00', end_date: '2030-05-05 11:00:00' });
    await make('plusFiveThirty', { timezone: 'UTC+5:30', start_date: '2030-05-06 09:00:00', end_date: '2030-05-06 10:00:00' });
    await make('minusThree', { timezone: 'UTC-3', start_date: '2030-05-07 18:00:00', end_date: '2030-05-07 20:00:00' });
    await make('allDay', { all_day: true, timezone: 'Europe/London', start_date: '2030-08-01', end_date: '2030-08-01' });
    await make('allDayMulti', { all_day: true, timezone: 'America/New_York', start_date: '2030-12-30', end_date: '2031-01-02' });
    await make('multiDay', { timezone: 'Europe/London', start_date: '2030-09-01 10:00:00', end_date: '2030-09-03 16:00:00' });
    await make('rich', {
      timezone: 'America/New_York',
      start_date: '2030-06-01 19:00:00',
      end_date: '2030-06-01 23:00:00',
      categories: [String(music.id)],
      venue: venue.id,
      organizer: [organizer.id],
      description: `Doors at 7pm, <strong>bring cash</strong>; no refunds &amp; no re-entry.\nSecond line\n\n${'A long paragraph, long enough to be folded. '.repeat(6)}`,
    });
  });
  afterAll(async () => t?.close());

  describe('events.ics', () => {
    it('is a calendar of the list’s events whose times resolve to the API’s UTC dates', async () => {
      const res = await get(t, `/events.ics?search=${tok}&${YEAR_2030}`);
      const feed = parseFeed(expectIcal(res, 'events.ics'));

      const events = await listed(t, `search=${tok}&${YEAR_2030}`);
      expect(events).toHaveLength(12);
      expectSameTimes(feed, events);
    });

    it('has the calendar properties and one VTIMEZONE per IANA zone used', async () => {
      const text = unfolded((await get(t, `/events.ics?search=${tok}&${YEAR_2030}`)).text);
      const lines = text.split('\r\n');

      expect(lines.slice(0, 3)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//calendar-events//calendar-events//EN']);
      expect(lines).toEqual(expect.arrayContaining(['CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'X-WR-CALNAME:Jazz\\, Blues\\; and more']));
      expect(text.match(/^TZID:.*$/gm)?.sort()).toEqual(['TZID:America/New_York', 'TZID:Asia/Kolkata', 'TZID:Australia/Sydney', 'TZID:Europe/London']);
    });

    it('writes IANA zones as TZID local time, UTC±N zones in UTC form, all-day events as dates', async () => {
      const text = (await get(t, `/events.ics?search=${tok}&${YEAR_2030}`)).text;
      const feed = parseFeed(text);
      const dtstart = (name: string) => feed.events.get(ev[name].global_id as string)!.getFirstProperty('dtstart')!;

      expect(dtstart('nyMarch').getParameter('tzid')).toBe('America/New_York');
      expect(timeOf(feed.events.get(ev.nyMarch.global_id as string)!, 'dtstart').toString()).toBe('2030-03-09T22:00:00');
      expect(dtstart('sydney').getParameter('tzid')).toBe('Australia/Sydney');
      for (const name of ['plusFiveThirty', 'minusThree']) {
        expect(dtstart(name).getParameter('tzid')).toBeUndefined();
        expect(timeOf(feed.events.get(ev[name].global_id as string)!, 'dtstart').zone?.tzid).toBe('UTC');
      }
      expect(dtstart('allDayMulti').type).toBe('date');
      expect(text).toContain('DTSTART;VALUE=DATE:20301230\r\nDTEND;VALUE=DATE:20310103\r\n');
      expect(timeOf(feed.events.get(ev.allDayMulti.global_id as string)!, 'dtend').toString()).toBe('2031-01-03');
    });

    it('writes each property of an event as ical.md’s table has it', async () => {
      const res = await get(t, `/events.ics?search=${tok}&${YEAR_2030}`);
      const [json] = await listed(t, `search=${tok}&${YEAR_2030}&categories=${music.id}`);
      const v = parseFeed(res.text).events.get(ev.rich.global_id as string)!;
      const value = (name: string) => v.getFirstPropertyValue(name);
      const utcOf = (name: string) => utcSql(timeOf(v, name));

      expect(json.id).toBe(ev.rich.id);
      expect(value('summary')).toBe(`rich ${tok}`);
      expect(value('description')).toBe(
        `Doors at 7pm, bring cash; no refunds & no re-entry.\nSecond line\n\n${'A long paragraph, long enough to be folded. '.repeat(6).trim()}`,
      );
      expect(v.getFirstProperty('x-alt-desc')!.getParameter('fmttype')).toBe('text/html');
      expect(unescapeText(String(value('x-alt-desc')))).toBe(json.description);
      expect(value('location')).toBe('Blue Note, 131 W 3rd St, New York, NY, 10012, United States');
      expect(value('geo')).toEqual([40.7308, -73.9999]);
      expect(value('url')).toBe(json.url);
      expect(v.getFirstProperty('categories')!.getValues()).toEqual([`Music ${tok}`]);
      expect(value('organizer')).toBe('mailto:ann@example.org');
      expect(v.getFirstProperty('organizer')!.getParameter('cn')).toBe('Ann Lee');
      expect({ status: value('status'), class: value('class') }).toEqual({ status: 'CONFIRMED', class: 'PUBLIC' });
      expect({ stamp: utcOf('dtstamp'), modified: utcOf('last-modified'), created: utcOf('created') }).toEqual({
        stamp: json.modified_utc,
        modified: json.modified_utc,
        created: json.date_utc,
      });
      // Escaped on the wire: the comma, the semicolon, the line breaks; and the long line folded.
      expect(unfolded(res.text)).toContain('DESCRIPTION:Doors at 7pm\\, bring cash\\; no refunds & no re-entry.\\nSecond line\\n\\nA long');
      expect(res.text).toMatch(/\r\nDESCRIPTION:[^\r]{60,}\r\n [^\r]/);
    });

    it.each([
      ['categories', () => `search=${tok}&${YEAR_2030}&categories=${music.id}`, ['rich']],
      ['venue', () => `search=${tok}&${YEAR_2030}&venue=${venue.id}`, ['rich']],
      ['search', () => `search=kolkata%20${tok}&${YEAR_2030}`, ['kolkata']],
      ['start_date/end_date', () => `search=${tok}&start_date=2030-04-01&end_date=2030-05-31`, ['sydney', 'kolkata', 'plusFiveThirty', 'minusThree']],
      ['starts_after', () => `search=${tok}&${YEAR_2030}&starts_after=2030-09-30`, ['nyNovember', 'allDayMulti']],
    ])('takes the list’s %s filter', async (_, query, names) => {
      const feed = parseFeed(expectIcal(await get(t, `/events.ics?${query()}`), 'events.ics'));
      const events = await listed(t, query());

      expect(uidsOf(feed).sort()).toEqual(names.map((n) => ev[n].global_id).sort());
      expectSameTimes(feed, events);
    });

    it('answers invalid parameters as the JSON list does, in JSON', async () => {
      for (const query of ['categories=no-such-category', 'start_date=not-a-date', 'venue=999999']) {
        const [ics, json] = [await get(t, `/events.ics?${query}`), await get(t, `/events?${query}`)];
        expect(ics.headers['content-type']).toBe(JSON_TYPE);
        expect({ status: ics.status, body: ics.body }).toEqual({ status: json.status, body: json.body });
      }
      expectInvalidParams(await get(t, '/events.ics?categories=no-such-category'), 'categories');
    });

    it('lists drafts only to those who may list them', async () => {
      const draft = await createEvent(t, author.authorization, {
        title: `draft ${tok}`,
        status: 'draft',
        start_date: '2030-10-10 10:00:00',
        end_date: '2030-10-10 11:00:00',
      });

      const anonymous = parseFeed((await get(t, `/events.ics?search=${tok}&${YEAR_2030}`)).text);
      expect(uidsOf(anonymous)).not.toContain(draft.global_id);
      const owner = parseFeed((await get(t, `/events.ics?search=${tok}&${YEAR_2030}&status=draft`, {}, author.authorization)).text);
      expect(uidsOf(owner)).toEqual([draft.global_id]);
      const [ics, json] = [await get(t, '/events.ics?status=draft'), await get(t, '/events?status=draft')];
      expect(ics.status).toBe(400);
      expect({ status: ics.status, body: ics.body }).toEqual({ status: json.status, body: json.body });
    });
  });

  describe('one event', () => {
    it('GET /events/{id}.ics is that event, under its slug’s file name', async () => {
      const text = expectIcal(await get(t, `/events/${ev.sydney.id}.ics`), `${ev.sydney.slug}.ics`);
      const feed = parseFeed(text);

      expect(uidsOf(feed)).toEqual([ev.sydney.global_id]);
      expect(unfolded(text).match(/^TZID:.*$/gm)).toEqual(['TZID:Australia/Sydney']);
      expectSameTimes(feed, [ev.sydney]);
    });

    it('answers as the JSON read does when the event cannot be read, in JSON', async () => {
      const draft = await createEvent(t, author.authorization, { title: `hidden ${tok}`, status: 'draft' });
      const trashed = await trashEvent(t, admin.authorization, (await createEvent(t, admin.authorization)).id);
      for (const path of [`/events/${draft.id}`, `/events/${trashed.id}`, '/events/999999', `/events/${music.id}`]) {
        const [ics, json] = [await get(t, `${path}.ics`), await get(t, path)];
        expect(json.status).toBeGreaterThanOrEqual(400);
        expect(ics.headers['content-type']).toBe(JSON_TYPE);
        expect({ path, status: ics.status, body: ics.body }).toEqual({ path, status: json.status, body: json.body });
      }
      expectError(await get(t, `/events/${trashed.id}.ics`), 403, 'event-no-longer-available');
      // Its author reads the draft.
      expect(parseFeed(expectIcal(await get(t, `/events/${draft.id}.ics`, {}, author.authorization), `${draft.slug}.ics`)).events.size).toBe(1);
    });

    it('a path that is not a number plus .ics is no route', async () => {
      expectError(await get(t, '/events/abc.ics'), 404, 'rest_no_route');
      expectError(await get(t, '/events/1.2.ics'), 404, 'rest_no_route');
    });

    it('SEQUENCE grows with each update', async () => {
      const e = await createEvent(t, admin.authorization, { title: `seq ${tok}` });
      const sequence = async () =>
        Number(
          parseFeed((await get(t, `/events/${e.id}.ics`)).text)
            .events.get(e.global_id as string)!
            .getFirstPropertyValue('sequence'),
        );
      const before = await sequence();
      await new Promise((resolve) => setTimeout(resolve, 1100)); // modified_utc counts whole seconds
      await updateEvent(t, admin.authorization, e.id, { title: `seq2 ${tok}` });

      expect(await sequence()).toBeGreaterThan(before);
    });
  });

  describe('Accept: text/calendar', () => {
    it('GET /events answers what events.ics answers, and says it varies by Accept', async () => {
      const query = `search=${tok}&${YEAR_2030}`;
      const json = await get(t, `/events?${query}`);
      const negotiated = await get(t, `/events?${query}`, { accept: 'text/calendar' });
      const feed = await get(t, `/events.ics?${query}`);

      expect(json.headers['content-type']).toBe(JSON_TYPE);
      expect(json.headers.vary).toMatch(/\bAccept\b/);
      expect(expectIcal(negotiated, 'events.ics')).toBe(feed.text);
      expect(negotiated.headers.vary).toMatch(/\bAccept\b/);
    });

    it('is not served a JSON answer the response cache kept for the same URL, nor fills it', async () => {
      const path = `/events?search=${tok}&${YEAR_2030}&categories=${music.id}`;
      // The cache keeps an answer for the second it was made in: a few rounds, so that some fall within one.
      for (let round = 0; round < 5; round++) {
        await get(t, path);
        expectIcal(await get(t, path, { accept: 'text/calendar' }), 'events.ics');
        const after = await get(t, path);
        expect(after.headers['content-type']).toBe(JSON_TYPE);
        expect(after.body.events).toHaveLength(1);
      }
    });

    it('GET /events/{id} and /events/by-slug/{slug} answer the single event', async () => {
      const ics = await get(t, `/events/${ev.kolkata.id}.ics`);
      for (const path of [`/events/${ev.kolkata.id}`, `/events/by-slug/${ev.kolkata.slug}`]) {
        const res = await get(t, path, { accept: 'text/calendar' });
        expect(expectIcal(res, `${ev.kolkata.slug}.ics`)).toBe(ics.text);
        expect(res.headers.vary).toMatch(/\bAccept\b/);
      }
    });

    it.each([['*/*'], ['application/json'], ['text/calendar;q=0.5, application/json'], ['text/html, */*;q=0.8']])('Accept: %s keeps JSON', async (accept) => {
      const res = await get(t, `/events/${ev.kolkata.id}`, { accept });
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(res.body.id).toBe(ev.kolkata.id);
    });

    it('errors stay JSON', async () => {
      const res = await get(t, '/events?categories=no-such-category', { accept: 'text/calendar' });
      expectInvalidParams(res, 'categories');
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expectError(await get(t, '/events/by-slug/no-such-slug', { accept: 'text/calendar' }), 400, 'rest_invalid_param');
    });
  });

  it('the namespace index links the feed for subscribe buttons', async () => {
    const res = await get(t, '/');
    expect(res.body._links.ical).toEqual([{ href: `${t.baseUrl}${API}/events.ics` }]);
  });
});

describe('iCalendar export: the window and CALENDAR_ICS_MAX_EVENTS (ical.md)', () => {
  let t: TestApp;
  let admin: Caller;
  const tok = uid('win');
  /** Events `days` from now (whole days, 12:00 UTC), by that number. */
  const ev = new Map<number, EventBody>();

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_ICS_MAX_EVENTS: '4' });
    ({ admin } = await makeUsers(t));
    const noon = DateTime.utc().startOf('day').set({ hour: 12 });
    for (const days of [-40, -20, -2, 1, 3, 40, 300, 400]) {
      const start = noon.plus({ days });
      ev.set(
        days,
        await createEvent(t, admin.authorization, {
          title: `w${days} ${tok}`,
          timezone: 'UTC',
          start_date: sql(start),
          end_date: sql(start.plus({ hours: 1 })),
        }),
      );
    }
  });
  afterAll(async () => t?.close());

  const idsIn = async (query: string) => {
    const feed = parseFeed(expectIcal(await get(t, `/events.ics?search=${tok}${query}`), 'events.ics'));
    const byUid = new Map([...ev.entries()].map(([days, e]) => [e.global_id as string, days]));
    return uidsOf(feed).map((u) => byUid.get(u));
  };

  it('keeps the events nearest to now, in list order, when more match than it may give', async () => {
    // The default window holds -20 … 300; the four nearest to now are -2, 1, 3 and -20 (40 is further).
    expect(await idsIn('')).toEqual([-20, -2, 1, 3]);
  });

  it('runs from 30 days ago to a year ahead by default', async () => {
    expect(await idsIn('&starts_after=-25 days')).toEqual([-20, -2, 1, 3]);
    expect(await idsIn(`&start_date=${sql(DateTime.utc().plus({ days: 30 }))}`)).toEqual([40, 300]);
  });

  it('takes start_date and end_date as given', async () => {
    const [from, to] = [DateTime.utc().minus({ days: 50 }), DateTime.utc().minus({ days: 10 })];
    expect(await idsIn(`&start_date=${sql(from)}&end_date=${sql(to)}`)).toEqual([-40, -20]);
    expect(await idsIn(`&start_date=${sql(DateTime.utc().plus({ days: 100 }))}&end_date=${sql(DateTime.utc().plus({ days: 500 }))}`)).toEqual([300, 400]);
  });
});
