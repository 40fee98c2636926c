// TEC's own public URLs of the list view (compat.md, "TEC's public URLs"; issue 31, item 4):
// `/events/list/`, `/events/list/page/N/` and `/events/page/N/` are the list view and its pages,
// so that links into a calendar that moved here keep working; CALENDAR_WP_COMPAT=off removes them.
import { cardTitles } from '../support/page-html';
import { createTestApp, TestApp } from '../support/test-app';
import { http } from '../support/http';
import { createEvent, makeUsers } from '../support/api';

const HTML = 'text/html; charset=utf-8';

describe("TEC's list URLs", () => {
  let t: TestApp;
  const year = new Date().getUTCFullYear() + 1;

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
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
    expect(await titles('/events/list/')).toEqual(first);
  });

  it('/events/list/page/2/ and /events/page/2/ are its second page', async () => {
    const second = await titles('/events/?page=2');
    expect(second).toHaveLength(4);
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

  it('with CALENDAR_WP_COMPAT=off they answer the 404 page', async () => {
    const off = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
    try {
      for (const path of ['/events/list/', '/events/page/2/', '/events/list/page/2/']) {
        const res = await http(off).get(path).expect(404);
        expect(res.headers['content-type']).toBe(HTML);
      }
    } finally {
      await off.close();
    }
  });
});
