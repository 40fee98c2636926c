// TEC's own public URLs of the list view (compat.md, "TEC's public URLs"):
// `/events/list/`, `/events/list/page/N/` and `/events/page/N/` are the list view and its pages,
// so that links into a calendar that moved here keep working; CALENDAR_WP_COMPAT=off removes them.
import { cardTitles } from '../../support/page-html';
import { createTestApp, TestApp } from '../../support/test-app';
import { http } from '../../support/http';
import { API } from '../../support/http';
import { createEvent, EventBody, makeUsers } from '../../support/api';

const HTML = 'text/html; charset=utf-8';

describe("TEC's list URLs", () => {
  let t: TestApp;
  const year = new Date().getUTCFullYear() + 1;
  let shown: EventBody;
  let draft: EventBody;

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
    shown = await createEvent(t, admin.authorization, { title: 'Tec Ical Concert', start_date: `${year}-03-01 19:00:00`, end_date: `${year}-03-01 21:00:00` });
    draft = await createEvent(t, admin.authorization, {
      title: 'Tec Ical Draft',
      status: 'draft',
      start_date: `${year}-03-02 19:00:00`,
      end_date: `${year}-03-02 21:00:00`,
    });
    // Fourteen upcoming events: two pages of the list view (ten a page).
    for (let i = 1; i <= 14; i++) {
      const day = String(i).padStart(2, '0');
      await createEvent(t, admin.authorization, {
        title: `Tec Url Event ${day}`,
        start_date: `${year}-02-${day} 10:00:00`,
        end_date: `${year}-02-${day} 11:00:00`,
      });
    }
  });
  afterAll(() => t?.close());

  async function titles(path: string): Promise<string[]> {
    const res = await http(t).get(path).expect(200);
    expect(res.headers['content-type']).toBe(HTML);
    return cardTitles(res.text);
  }

  it('/events/list/ is the list view', async () => {
    const first = await titles('/events/');
    expect(first).toHaveLength(10);
    expect(first[0]).toBe('Tec Url Event 01');
    expect(await titles('/events/list/')).toEqual(first);
  });

  it('/events/list/page/2/ and /events/page/2/ are its second page', async () => {
    const second = await titles('/events/?page=2');
    expect(second).toHaveLength(5); // the 14 dated events and the concert: 15 listed, ten a page
    expect(second).not.toEqual(await titles('/events/'));
    expect(await titles('/events/list/page/2/')).toEqual(second);
    expect(await titles('/events/page/2/')).toEqual(second);
  });

  it('redirects the unslashed forms to the slashed ones, like every page', async () => {
    expect((await http(t).get('/events/list').expect(301)).headers.location).toMatch(/\/events\/list\/$/);
    expect((await http(t).get('/events/page/2').expect(301)).headers.location).toMatch(/\/events\/page\/2\/$/);
  });

  it('a page segment that is not a page number answers the 404 page (as WordPress: page/([0-9]+)/)', async () => {
    for (const path of ['/events/page/zero/', '/events/page/0/', '/events/list/page/-1/']) {
      const res = await http(t).get(path).expect(404);
      expect(res.headers['content-type']).toBe(HTML);
    }
  });

  /** The lines of an iCalendar document's VEVENTs that do not change from one answer to the next, but its UID. */
  const stable = (ics: string) =>
    ics
      .slice(ics.indexOf('BEGIN:VEVENT'))
      .split('\r\n')
      .filter((line) => line !== '' && !line.startsWith('DTSTAMP') && !line.startsWith('UID:'));

  it("/event/{slug}/ical/ and /event/{slug}/?ical=1 answer the event's own .ics, with TEC's header lines and UID", async () => {
    const slug = new URL(shown.url).pathname.split('/')[2];
    const api = await http(t).get(`${API}/events/${shown.id}.ics`).expect(200);
    const unix = (sql: string) => Date.parse(`${sql.replace(' ', 'T')}Z`) / 1000;
    for (const path of [`/event/${slug}/ical/`, `/event/${slug}/?ical=1`]) {
      const res = await http(t).get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.text).toContain('SUMMARY:Tec Ical Concert');
      expect(stable(res.text)).toEqual(stable(api.text));
      // TEC's shape (compat.md): the API's file keeps the service's own.
      expect(res.text).toContain(`\r\nUID:${shown.id}-${unix(shown.utc_start_date)}-${unix(shown.utc_end_date)}@${new URL(t.baseUrl).hostname}\r\n`);
      expect(res.text).toMatch(/\r\nPRODID:-\/\/Events - ECPv[\d.]+ \(calendar-events\)\/\/NONSGML v1\.0\/\/EN\r\n/);
      expect(api.text).toContain(`\r\nUID:${shown.global_id as string}\r\n`);
    }
    // The page itself is still the page, and each stays what it is when asked again (cached answers).
    expect((await http(t).get(`/event/${slug}/`).expect(200)).headers['content-type']).toBe(HTML);
    expect((await http(t).get(`/event/${slug}/?ical=1`).expect(200)).headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect((await http(t).get(`/event/${slug}/`).expect(200)).headers['content-type']).toBe(HTML);
    expect((await http(t).get(`/event/${slug}/ical`).expect(301)).headers.location).toMatch(new RegExp(`/event/${slug}/ical/$`));
  });

  it('an event anonymous readers may not see answers the 404 page, not its .ics', async () => {
    expect(draft.slug).toBeTruthy();
    for (const path of [`/event/${draft.slug}/ical/`, `/event/${draft.slug}/?ical=1`, '/event/no-such-event/ical/']) {
      const res = await http(t).get(path).expect(404);
      expect(res.headers['content-type']).toBe(HTML);
      expect(res.text).not.toContain('Tec Ical Draft');
    }
  });

  it('with CALENDAR_WP_COMPAT=off they answer the 404 page', async () => {
    const off = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
    try {
      for (const path of ['/events/list/', '/events/page/2/', '/events/list/page/2/', `/event/${new URL(shown.url).pathname.split('/')[2]}/ical/`]) {
        const res = await http(off).get(path).expect(404);
        expect(res.headers['content-type']).toBe(HTML);
      }
    } finally {
      await off.close();
    }
  });
});
