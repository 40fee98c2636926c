// Who sent a submitted event (editing.md §4): its name and e-mail are shown to editors and
// administrators only, on the event's form and in the review queue, and on no public surface.
// Every surface is read after the event, its venue and its organizer are published: the event's
// page and the lists, the public API (item and list, anonymous and as a subscriber), JSON-LD,
// iCalendar, RSS and the anonymous change feed; none holds the name or the e-mail.
import { DiscoveryService } from '@nestjs/core';
import { DateTime } from 'luxon';
import { Hooks } from '../../../src/common/feature/hooks';
import { REVIEW_HOOKS, type ReviewHook } from '../../../src/manage';
import { UsersService } from '../../../src/users';
import { changePages } from '../../support/changes';
import { API, http } from '../../support/http';
import { getPage, signedInUser, textOf } from '../../support/manage';
import { fastifyOf } from '../../support/sign-in';
import { openForm, sendForm, submission } from '../../support/submissions';
import { createTestApp, EXTENSIONS_OFF, type TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;

const NAME = 'Zelda Quietname';
const EMAIL = 'zelda.private@example.net';
/** What must not appear: the name, its rarer half, the e-mail and its local part. */
const SECRETS = [NAME, 'Quietname', EMAIL, 'zelda.private'];

/** iCalendar folds long lines (RFC 5545 §3.1): unfolded, a value split over two lines reads whole. */
const unfold = (text: string) => text.replace(/\r?\n[ \t]/g, '');

describe('the submitter’s name and e-mail (editing.md §4)', () => {
  let t: TestApp;
  let first: { id: number; cookie: string; authorization: string };
  let editor: { id: number; cookie: string; authorization: string };
  let subscriber: { authorization: string };
  let event: Json;
  /** The review queue's text while the event waits there, as an editor reads it. */
  let queue: string;
  const day = DateTime.now().setZone('Europe/Paris').plus({ days: 20 }).toFormat('yyyy-MM-dd');

  beforeAll(async () => {
    t = await createTestApp({ ...EXTENSIONS_OFF, CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_TIMEZONE: 'Europe/Paris' });
    // The first administrator writes the submissions; another keeps the site administered when it is made an author below.
    first = await signedInUser(t, 'amy', 'administrator');
    await signedInUser(t, 'boss', 'administrator');
    editor = await signedInUser(t, 'eddie', 'editor');
    subscriber = await t.userHeader('sue', 'subscriber');
    const form = await openForm(t);
    const res = await sendForm(
      t,
      form,
      submission({
        title: 'Lantern walk',
        description: 'Meet at the gate.',
        start_date: day,
        end_date: day,
        your_name: NAME,
        your_email: EMAIL,
        venue: 'new',
        new_venue: { venue: 'Old Gate', city: 'Dijon' },
        organizers: ['new'],
        new_organizer: { organizer: 'Lantern Friends' },
      }),
    );
    expect(res.statusCode).toBe(303);
    const pending = await http(t, editor.authorization).get(`${API}/events?status=pending&search=Lantern`);
    const found = (pending.body.events as Json[])[0];
    const review = await getPage(t, editor.cookie, '/manage/review/');
    expect(review.status).toBe(200);
    queue = textOf(review.html);
    // Published with its venue and organizer, so that every public surface shows the event.
    for (const [route, id] of [
      ['venues', (found.venue as Json).id],
      ['organizers', (found.organizer as Json[])[0].id],
      ['events', found.id],
    ] as const) {
      const published = await http(t, editor.authorization)
        .post(`${API}/${route}/${id as number}`)
        .send({ status: 'publish' });
      expect(published.status).toBe(200);
    }
    event = (await http(t).get(`${API}/events/${found.id as number}`)).body as Json;
    expect(event.status).toBe('publish');
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectNone = (where: string, text: string) => {
    for (const secret of SECRETS) expect({ where, holds: text.includes(secret) }).toEqual({ where, holds: false });
  };
  const page = async (path: string) => {
    const res = await fastifyOf(t).inject({ method: 'GET', url: path });
    expect({ path, status: res.statusCode }).toEqual({ path, status: 200 });
    return res.body;
  };

  it('are in no public page: the event, its venue and organizer, the list, month and day views', async () => {
    const eventPage = await page(new URL(String(event.url)).pathname);
    expect(eventPage).toContain('Lantern walk');
    expect(eventPage).toContain('application/ld+json'); // its JSON-LD is read with the page
    expectNone('event page', eventPage);
    expectNone('venue page', await page(new URL(String((event.venue as Json).url)).pathname));
    expectNone('organizer page', await page(new URL(String((event.organizer as Json[])[0].url)).pathname));
    const list = await page('/events/');
    expect(list).toContain('Lantern walk');
    expectNone('list', list);
    expectNone('month', await page(`/events/month/${day.slice(0, 7)}/`));
    const dayPage = await page(`/events/${day}/`);
    expect(dayPage).toContain('Lantern walk');
    expectNone('day', dayPage);
  });

  it('are in no answer of the public API, anonymous or as a subscriber, JSON-LD included', async () => {
    for (const authorization of [undefined, subscriber.authorization]) {
      const item = await http(t, authorization).get(`${API}/events/${event.id as number}`);
      expect(item.status).toBe(200);
      expectNone('event item', item.text);
      const list = await http(t, authorization).get(`${API}/events?search=Lantern`);
      expect((list.body.events as Json[]).map((e) => e.id)).toEqual([event.id]);
      expectNone('event list', list.text);
      const venue = await http(t, authorization).get(`${API}/venues/${(event.venue as Json).id as number}`);
      expectNone('venue item', venue.text);
    }
    // The editors' own API answers keep them out too: the representation has no such key.
    const edited = await http(t, editor.authorization).get(`${API}/events/${event.id as number}`);
    expectNone('event item for an editor', edited.text);
  });

  it('are in no iCalendar feed, nor the RSS feed', async () => {
    const feeds = [`${API}/events.ics`, `${API}/events/${event.id as number}?ical=1`, '/events/?ical=1', `${new URL(String(event.url)).pathname}ical/`];
    for (const path of feeds) {
      const res = await fastifyOf(t).inject({ method: 'GET', url: path, headers: { accept: 'text/calendar' } });
      expect({ path, status: res.statusCode }).toEqual({ path, status: 200 });
      expect(res.body).toContain('Lantern walk');
      expectNone(path, unfold(res.body));
    }
    const rss = await page('/events/feed/');
    expect(rss).toContain('Lantern walk');
    expectNone('rss', rss);
  });

  it('are in no change of the anonymous change feed', async () => {
    let seen = false;
    for await (const feed of changePages(t, undefined)) {
      for (const change of feed.changes) if (change.type === 'event' && change.id === event.id) seen = true;
      expectNone('change feed', JSON.stringify(feed));
    }
    expect(seen).toBe(true);
  });

  it('are shown read-only on the event’s form to an editor or administrator, and to nobody else there', async () => {
    const form = await getPage(t, editor.cookie, `/manage/events/${event.id as number}/`);
    expect(form.status).toBe(200);
    const text = textOf(form.html);
    expect(text).toContain('Submitted by');
    expect(text).toContain(NAME);
    expect(form.html).toContain(`href="mailto:${EMAIL}"`);
    // Nothing of it is an input: it is not posted back.
    expect(form.html).not.toMatch(new RegExp(`<input[^>]*value="${NAME}"`));

    // The event's own author, once no more than an author, may open its form but not see who sent it.
    await t.app.get(UsersService).setRole('amy', 'author');
    const own = await getPage(t, first.cookie, `/manage/events/${event.id as number}/`);
    expect(own.status).toBe(200);
    expect(textOf(own.html)).not.toContain('Submitted by');
    for (const secret of SECRETS) expect(own.html).not.toContain(secret);
  });

  it('are given to the review queue', async () => {
    const hooks = new Hooks<ReviewHook>(t.app.get(DiscoveryService), REVIEW_HOOKS).all();
    expect(hooks.length).toBeGreaterThan(0);
    const found = new Map<number, unknown>();
    for (const hook of hooks) for (const [id, who] of await hook.submitters([event.id as number, 999999])) found.set(id, who);
    expect([...found]).toEqual([[event.id, { name: NAME, email: EMAIL }]]);

    // And the queue itself shows them, as the submitted event waited there.
    expect(queue).toContain('Lantern walk');
    expect(queue).toContain(`${NAME} · ${EMAIL}`);
  });
});
