// A series in events.ics as subscribers' calendar apps read it (recurrence.md §6, ical.md): for
// series in zones with DST changes (a 30-minute one included) over three years, after edits,
// trashes, drafts and restores of single occurrences, what ical.js (with the file's own
// VTIMEZONEs) and node-ical make of the served file is, instant for instant, what the API lists
// for the same window.
import { uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { apiInstances, expectFeedAsApi, FEED_ENV, Listed, SERIES, WHOLE, ZONES } from '../../support/series-feed';
import { createTestApp, TestApp } from '../../support/test-app';

describe.each(ZONES)('recurrence.md §6: events.ics of a series in %s as calendar apps read it', (timezone) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(FEED_ENV);
    admin = (await t.userHeader(uid('admin'), 'administrator')).authorization;
  }, 60_000);
  afterAll(async () => t?.close());

  async function series(recurrence = SERIES.recurrence): Promise<Listed[]> {
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: uid('weekly'), status: 'publish', timezone, ...SERIES, recurrence });
    expectStatus(res, 201);
    const all: Listed[] = [];
    for (let page = 1; ; page++) {
      const list = await http(t, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=50&page=${page}`);
      expectStatus(list, 200);
      all.push(...(list.body.events as Listed[]));
      if (page >= list.body.total_pages) break;
    }
    expect(all.length).toBeGreaterThan(150);
    return all;
  }

  it('every occurrence over three years: the VTIMEZONE covers each DST change the series crosses', async () => {
    const all = await series();
    await expectFeedAsApi(t, all[0].id);
  });

  it('an open-ended rule: the VTIMEZONE reaches the last occurrence made', async () => {
    const all = await series(['RRULE:FREQ=WEEKLY']);
    await expectFeedAsApi(t, all[0].id);
  });

  it('the first occurrence edited on its own (time and title): the series keeps its start, the first is an override', async () => {
    const all = await series();
    const res = await http(t, admin)
      .post(`${API}/events/${all[0].id}?scope=this`)
      .send({ title: 'Moved first', start_date: '2027-01-06 08:00:00', end_date: '2027-01-06 09:00:00' });
    expectStatus(res, 200);
    await expectFeedAsApi(t, all[0].id);
    const feed = await http(t).get(`${API}/events.ics?series=${all[0].id}&${WHOLE.query}`);
    expect(feed.text.match(/^SUMMARY:.*$/gm)?.filter((s) => s.includes('Moved first')).length).toBe(1);
  });

  it('the first occurrence trashed: still one series, its start excluded', async () => {
    const all = await series();
    const trashed = await http(t, admin).delete(`${API}/events/${all[0].id}?scope=this`);
    expectStatus(trashed, 200);
    await expectFeedAsApi(t, all[0].id);
    // The series' VEVENT is as new as that change (SEQUENCE never goes back when another occurrence gives its fields).
    const feed = await http(t).get(`${API}/events.ics?series=${all[0].id}&${WHOLE.query}`);
    expect(feed.text.match(/^LAST-MODIFIED:(.*)\r$/m)?.[1]).toBe(`${(trashed.body.modified_utc as string).replace(/[-:]/g, '').replace(' ', 'T')}Z`);
  });

  it('the first occurrence set to draft: still one series, its start excluded', async () => {
    const all = await series();
    expectStatus(await http(t, admin).post(`${API}/events/${all[0].id}?scope=this`).send({ status: 'draft' }), 200);
    await expectFeedAsApi(t, all[0].id);
  });

  it('an occurrence restored after a scope=following delete is in the feed past the UNTIL', async () => {
    const all = await series();
    expectStatus(await http(t, admin).delete(`${API}/events/${all[80].id}?scope=following`), 200);
    expectStatus(await http(t, admin).post(`${API}/events/${all[100].id}`).send({ status: 'publish' }), 200);
    const listed = await apiInstances(t, all[0].id, WHOLE);
    expect(listed.at(-1)).toEqual({ start: all[100].utc_start_date, end: all[100].utc_end_date });
    await expectFeedAsApi(t, all[0].id);
  });
});
