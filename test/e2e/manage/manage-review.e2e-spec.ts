// The review queue of the editing pages (editing.md §2 `/manage/review/`, §7, §8), over plain
// HTTP with signed-in sessions: pending events oldest first with who sent them, "Approve",
// edit then approve, "Decline" with a "Reason" kept on the event's record (its form, never the
// API or the public pages), stale actions, the form token, and a test-only review hook naming a
// public submitter.
import { Injectable, Module } from '@nestjs/common';
import { Hook, REVIEW_HOOKS } from '../../../src/extend';
import type { ReviewHook, ReviewSubmitter } from '../../../src/extend';
import { FEATURES } from '../../../src/features';
import { ReviewRepository } from '../../../src/manage/review.repository';
import { createEvent, createVenue, readEvent, uid, updateEvent } from '../../support/api';
import { API, http } from '../../support/http';
import { alertText, formPairs, formToken, getPage, hasButton, type PageAnswer, postForm, signedInUser, textOf, withFields } from '../../support/manage';
import { createTestApp, type TestApp } from '../../support/test-app';

type User = { id: number; cookie: string; authorization: string };
type Json = Record<string, unknown>;

const QUEUE = '/manage/review/';

/** A feature's review hook, as the public submission form would give one: submitters by event id. */
@Hook(REVIEW_HOOKS)
@Injectable()
class TestSubmitters implements ReviewHook {
  readonly known = new Map<number, ReviewSubmitter>();
  /** The ids each call was asked about (one call per page of the queue). */
  readonly asked: number[][] = [];

  async submitters(eventIds: readonly number[]): Promise<ReadonlyMap<number, ReviewSubmitter>> {
    this.asked.push([...eventIds]);
    return new Map(eventIds.flatMap((id) => (this.known.has(id) ? [[id, this.known.get(id)!] as const] : [])));
  }
}

@Module({ providers: [TestSubmitters] })
class TestSubmittersModule {}

/** The events of a page of the queue, in order: id and title. */
function queued(html: string): { id: number; title: string }[] {
  return [...html.matchAll(/<h2 id="review-(\d+)-title">([^<]*)<\/h2>/g)].map((m) => ({ id: Number(m[1]), title: m[2] }));
}

/** The card of one event on the queue ('' when it is not there). */
function card(html: string, id: number): string {
  const start = html.indexOf(`<article class="review-item" aria-labelledby="review-${id}-title">`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</article>', start));
}

/** The version the actions of an event's card carry. */
function versionIn(html: string, id: number): string {
  const m = /name="version" value="([^"]*)"/.exec(card(html, id));
  if (!m) throw new Error(`no card for event ${id} on the queue`);
  return textOf(m[1]); // the attribute's text (an ETag is quoted)
}

describe('the review queue (editing.md §2 /manage/review/)', () => {
  let t: TestApp;
  let admin: User;
  let editor: User;
  let author: User;
  let contributor: User;
  let subscriber: User;
  let hook: TestSubmitters;
  const word = uid('rq');

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: 'Europe/Paris' }, { features: [...FEATURES, { name: 'test-submitters', modules: [TestSubmittersModule] }] });
    admin = await signedInUser(t, 'ada', 'administrator');
    editor = await signedInUser(t, 'eddie', 'editor');
    author = await signedInUser(t, 'ann', 'author');
    contributor = await signedInUser(t, 'connie', 'contributor');
    subscriber = await signedInUser(t, 'sam', 'subscriber');
    hook = t.app.get(TestSubmitters);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A pending event made through the API by an editor (or `who`), sent at `date` when given. */
  const pending = (title: string, fields: Json = {}, who: User = editor) =>
    createEvent(t, who.authorization, { title: `${title} ${word}`, status: 'pending', ...fields });
  const statusOf = async (id: number) => (await readEvent(t, id, admin.authorization)).status;
  const queue = (who: User = admin, page = 1) => getPage(t, who.cookie, page > 1 ? `${QUEUE}?page=${page}` : QUEUE);

  /** The page of the queue that shows this event (the queue is oldest first: a new event is on a later page). */
  async function queueWith(who: User, id: number): Promise<PageAnswer> {
    for (let page = 1; page < 20; page += 1) {
      const shown = await queue(who, page);
      if (card(shown.html, id) !== '') return shown;
      if (!shown.html.includes('rel="next"')) break;
    }
    throw new Error(`event ${id} is on no page of the queue`);
  }

  /** Posts an action of the queue as its card's form does, with the version the queue showed. */
  async function act(who: User, shown: PageAnswer, id: number, verb: 'approve' | 'decline', fields: Record<string, string> = {}) {
    const page = /name="page" value="(\d+)"/.exec(card(shown.html, id))?.[1] ?? '1';
    return postForm(t, who.cookie, `${QUEUE}${id}/${verb}`, { _csrf: formToken(shown.html), version: versionIn(shown.html, id), page, ...fields });
  }

  it('lists pending events oldest first, with dates in their zone, venue, author, and the submitter a review hook gives', async () => {
    const venue = await createVenue(t, admin.authorization, { venue: `Dock hall ${word}`, status: 'publish' });
    // Sent long ago, in this order: second, then first, then third (made in another order).
    const third = await pending('Third', { date_utc: '2001-01-03 08:00:00' });
    const first = await pending('First', {
      date_utc: '2001-01-01 08:00:00',
      timezone: 'Asia/Tokyo',
      start_date: '2030-09-10 10:00:00',
      end_date: '2030-09-10 11:00:00',
      venue: venue.id,
    });
    const second = await pending('Second', { date_utc: '2001-01-02 08:00:00' });
    const sent = await createEvent(t, contributor.authorization, { title: `Sent by a contributor ${word}`, status: 'publish' });
    expect(sent.status).toBe('pending');
    hook.known.set(first.id, { name: 'Grace <b>Hopper</b>', email: 'grace@example.org' });

    const page = await queue();
    expect(page.status).toBe(200);
    const order = queued(page.html).map((e) => e.id);
    expect(order.slice(0, 3)).toEqual([first.id, second.id, third.id]);
    expect(order).toContain(sent.id);
    expect(order.indexOf(sent.id)).toBeGreaterThan(2);

    const one = textOf(card(page.html, first.id));
    expect(one).toContain('2030-09-10 10:00 – 11:00');
    expect(card(page.html, first.id)).toContain('title="Asia/Tokyo"');
    expect(one).toContain(`Dock hall ${word}`);
    expect(one).toContain('Author eddie');
    expect(one).toContain('Sent by Grace <b>Hopper</b> · grace@example.org');
    expect(card(page.html, first.id)).toContain('Grace &lt;b&gt;Hopper&lt;/b&gt;');
    expect(one).toContain('Sent 2001-01-01 09:00 (Europe/Paris)');
    expect(textOf(card(page.html, second.id))).not.toContain('Sent by');
    expect(textOf(card(page.html, sent.id))).toContain('Author connie');
    // The hook is asked once for the page, about the page's events.
    expect(hook.asked.at(-1)).toEqual(order);

    // Each card: "Approve", "Decline" with a "Reason", and a link to the form to edit then approve.
    const c = card(page.html, first.id);
    expect(hasButton(c, 'Approve')).toBe(true);
    expect(hasButton(c, 'Decline')).toBe(true);
    expect(c).toContain(`<label for="reason-${first.id}">Reason</label>`);
    expect(c).toContain(`href="/manage/events/${first.id}/?review=1"`);
    expect(c.match(/name="_csrf"/g)).toHaveLength(2);
  });

  it('is paged: one page at a time, the next pages following in the same order', async () => {
    const made: number[] = [];
    for (let i = 0; i < 21; i += 1)
      made.push((await pending(`Paged ${String(i).padStart(2, '0')}`, { date: `2002-02-${String(i + 1).padStart(2, '0')} 08:00:00` })).id);
    const pages: number[][] = [];
    let page = await queue();
    for (let n = 1; ; n += 1) {
      pages.push(queued(page.html).map((e) => e.id));
      const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(page.html)?.[1];
      if (!next) break;
      expect(next).toBe(`${QUEUE}?page=${n + 1}`);
      page = await getPage(t, admin.cookie, next.replace(/&amp;/g, '&'));
    }
    expect(pages[0]).toHaveLength(20);
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((id) => made.includes(id))).toEqual(made);
    const total = Number(/(\d+) events pending review/.exec(textOf(page.html))?.[1]);
    expect(total).toBe(all.length);
    // A page past the end shows the last one.
    expect(queued((await queue(admin, 999)).html).map((e) => e.id)).toEqual(pages.at(-1));
  });

  it('is for editors and administrators only: a contributor, an author and a subscriber get the 403 page, and their actions do nothing', async () => {
    const event = await pending('Not theirs');
    const shown = await queueWith(admin, event.id);
    expect((await queue(editor)).status).toBe(200);
    for (const who of [contributor, author, subscriber]) {
      const page = await queue(who);
      expect(page.status).toBe(403);
      expect(page.html).not.toContain(`Not theirs ${word}`);
      const own = await getPage(t, who.cookie, '/manage/');
      const post = await postForm(t, who.cookie, `${QUEUE}${event.id}/approve`, {
        _csrf: own.status === 200 ? formToken(own.html) : formToken(shown.html),
        version: versionIn(shown.html, event.id),
      });
      expect(post.status).toBe(403);
    }
    expect(await statusOf(event.id)).toBe('pending');
    // The menu has "Review" with the count for those who review, and not for the others.
    const count = Number(/(\d+) events? pending review/.exec(textOf(shown.html))?.[1]);
    const editorMenu = (await getPage(t, editor.cookie, '/manage/events/')).html;
    expect(editorMenu).toContain(`<a href="/manage/review/">Review <span class="count">(${count})</span></a>`);
    expect((await getPage(t, author.cookie, '/manage/events/')).html).not.toContain('href="/manage/review/"');
  });

  it('the overview counts the pending events and links reviewers to the queue', async () => {
    await pending('Counted');
    const shown = await queue(admin);
    const count = Number(/(\d+) events? pending review/.exec(textOf(shown.html))?.[1]);
    const overview = (await getPage(t, admin.cookie, '/manage/')).html;
    expect(overview).toContain(`<a href="/manage/review/"><span class="count">${count}</span> events pending review</a>`);
    // An author reviews nothing: the link goes to its own pending events in the list.
    const theirs = (await getPage(t, author.cookie, '/manage/')).html;
    expect(theirs).toMatch(/<a href="\/manage\/events\/\?status=pending"><span class="count">\d+<\/span> events? pending review<\/a>/);
  });

  it('"Approve" publishes the event through the write path, as the reviewer, and the queue says so', async () => {
    // Sent by a contributor (whose publish is a submission), approved by an editor.
    const event = await createEvent(t, contributor.authorization, { title: `Approved ${word}`, status: 'publish' });
    expect(event.status).toBe('pending');
    const shown = await queueWith(editor, event.id);
    const res = await act(editor, shown, event.id, 'approve');
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${QUEUE}\\?(page=\\d+&)?approved=${event.id}$`));
    // Public now: anyone reads it through the API, still the contributor's.
    const api = await readEvent(t, event.id);
    expect(api.status).toBe('publish');
    expect(Number(api.author)).toBe(contributor.id);
    const after = await getPage(t, editor.cookie, res.location!);
    expect(textOf(after.html)).toContain(`“Approved ${word}” is approved and published.`);
    expect(queued(after.html).map((e) => e.id)).not.toContain(event.id);

    // A publish date ahead: approved, and scheduled for that date, as the API's publish makes it.
    const later = await pending('Approved later', { date: '2031-01-01 10:00:00' });
    const again = await queueWith(editor, later.id);
    const res2 = await act(editor, again, later.id, 'approve');
    expect(res2.status).toBe(303);
    expect(await statusOf(later.id)).toBe('future');
    expect(textOf((await getPage(t, editor.cookie, res2.location!)).html)).toContain(
      `“Approved later ${word}” is approved: it is scheduled for its publish date, 2031-01-01 10:00.`,
    );
  });

  it('edit then approve: the form opened from the queue publishes the changes and goes back to the queue', async () => {
    const event = await pending('Draft title', { cost: '5' });
    const shown = await queueWith(admin, event.id);
    const form = await getPage(t, admin.cookie, `/manage/events/${event.id}/?review=1`);
    expect(form.status).toBe(200);
    expect(form.html).toContain('<input type="hidden" name="review" value="1">');
    expect(hasButton(form.html, 'Publish')).toBe(true);
    expect(versionIn(shown.html, event.id)).toBe(formPairs(form.html, 'event-form').find(([name]) => name === 'version')?.[1]);
    const pairs = withFields(formPairs(form.html, 'event-form'), { title: `Edited title ${word}`, cost: '7', action: 'publish' });
    const res = await postForm(t, admin.cookie, `/manage/events/${event.id}/`, pairs);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${QUEUE}?approved=${event.id}`);
    const api = await readEvent(t, event.id);
    expect(api).toMatchObject({ status: 'publish', title: `Edited title ${word}`, cost: '7' });
    expect(textOf((await getPage(t, admin.cookie, res.location!)).html)).toContain(`“Edited title ${word}” is approved and published.`);

    // Opened without the queue, the form saves as it always does.
    const plain = await pending('Plain form');
    const opened = await getPage(t, admin.cookie, `/manage/events/${plain.id}/`);
    expect(opened.html).not.toContain('name="review"');
    const saved = await postForm(t, admin.cookie, `/manage/events/${plain.id}/`, withFields(formPairs(opened.html, 'event-form'), { action: 'publish' }));
    expect(saved.location).toBe(`/manage/events/${plain.id}/?saved=1`);
  });

  it('"Decline" moves the event to the trash and keeps the reason, who and when on its form, and nowhere public', async () => {
    const event = await pending('Declined');
    const reason = `Duplicate of another event <${word}> & the venue is wrong.\nPlease send it again.`;
    const shown = await queueWith(admin, event.id);
    const res = await act(admin, shown, event.id, 'decline', { reason });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${QUEUE}\\?(page=\\d+&)?declined=${event.id}$`));
    expect(textOf((await getPage(t, admin.cookie, res.location!)).html)).toContain(
      `“Declined ${word}” is declined and in the trash; the reason is kept on its form.`,
    );
    const form = await getPage(t, admin.cookie, `/manage/events/${event.id}/`);
    expect(form.html).toContain('This event is in the trash.');
    const note = textOf(form.html);
    expect(note).toContain('Declined in review');
    expect(note).toMatch(/Declined by ada on \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Paris\)\. Reason:/);
    expect(note).toContain(`Duplicate of another event <${word}> & the venue is wrong. Please send it again.`);
    expect(form.html).toContain(`&lt;${word}&gt; &amp; the venue`);
    // The event's author sees it too on its form (the reason is for the one who sent it, not the public).
    const mine = await getPage(t, editor.cookie, `/manage/events/${event.id}/`);
    expect(textOf(mine.html)).toContain('Declined in review');

    // Restored and published by the API, the event is public again: the reason is in none of its public answers.
    await updateEvent(t, admin.authorization, event.id, { status: 'publish' });
    const api = await http(t).get(`${API}/events/${event.id}`);
    expect(api.status).toBe(200);
    const publicUrl = new URL(String(api.body.url)).pathname;
    const answers = [
      JSON.stringify(api.body),
      JSON.stringify((await http(t, admin.authorization).get(`${API}/events/${event.id}`)).body),
      (await http(t).get(`${API}/events?search=${encodeURIComponent(word)}&per_page=50&start_date=2000-01-01&end_date=2040-01-01`)).text,
      (await http(t).get(`${API}/changes?embed=true&types=event&per_page=500`)).text,
      (await http(t, admin.authorization).get(`${API}/changes?embed=true&types=event&per_page=500`)).text,
      (await http(t).get(`${API}/events/${event.id}.ics`)).text,
      (await http(t).get(publicUrl)).text,
    ];
    expect((await http(t).get(publicUrl)).status).toBe(200);
    for (const answer of answers) {
      expect(answer).toContain(`Declined ${word}`); // each answer shows the event…
      expect(answer).not.toContain('Duplicate of another'); // …and not why it was declined
      expect(answer).not.toContain('Please send it again');
    }
    // The form keeps it.
    expect(textOf((await getPage(t, admin.cookie, `/manage/events/${event.id}/`)).html)).toContain('Please send it again.');

    // Deleted for good, the event takes its declines with it.
    expect(await t.app.get(ReviewRepository).latestDecline(event.id)).not.toBeNull();
    expect((await http(t, admin.authorization).delete(`${API}/events/${event.id}?force=true`)).status).toBe(200);
    expect(await t.app.get(ReviewRepository).latestDecline(event.id)).toBeNull();
  });

  it('"Decline" without a reason comes back with the message beside "Reason" and changes nothing', async () => {
    const event = await pending('No reason');
    const shown = await queueWith(admin, event.id);
    const res = await act(admin, shown, event.id, 'decline', { reason: '   ' });
    expect(res.status).toBe(400);
    expect(alertText(res.html)).toContain('Give the reason for declining.');
    const field = new RegExp(`<textarea id="reason-${event.id}" name="reason" aria-describedby="([^"]+)" aria-invalid="true"`).exec(res.html);
    expect(field?.[1].split(' ')).toContain(`reason-${event.id}-error`);
    expect(res.html).toContain(`<p class="field-error" id="reason-${event.id}-error">Give the reason for declining.</p>`);
    expect(res.html).toContain(`<a href="#reason-${event.id}">Give the reason for declining.</a>`);
    expect(await statusOf(event.id)).toBe('pending');
    expect(await t.app.get(ReviewRepository).latestDecline(event.id)).toBeNull();
    // A reason over 2,000 characters likewise, kept in the field.
    const long = 'x'.repeat(2001);
    const res2 = await act(admin, shown, event.id, 'decline', { reason: long });
    expect(res2.status).toBe(400);
    expect(card(res2.html, event.id)).toContain(`>${long}</textarea>`);
    expect(await statusOf(event.id)).toBe('pending');
  });

  it('a stale action (the event changed since the queue was shown, or is no longer pending) says so and changes nothing', async () => {
    const changed = await pending('Changed meanwhile');
    const published = await pending('Published meanwhile');
    const declinedLate = await pending('Changed before decline');
    const shown = await queueWith(admin, changed.id);
    expect(card(shown.html, declinedLate.id)).not.toBe('');

    await updateEvent(t, editor.authorization, changed.id, { title: `Changed meanwhile again ${word}` });
    const res = await act(admin, shown, changed.id, 'approve');
    expect(res.status).toBe(409);
    expect(alertText(res.html)).toContain(`“Changed meanwhile again ${word}” was changed since the queue was shown. Nothing was changed`);
    expect(await readEvent(t, changed.id, admin.authorization)).toMatchObject({ status: 'pending', title: `Changed meanwhile again ${word}` });
    // The queue it shows is the new one: the new version approves.
    expect(versionIn(res.html, changed.id)).not.toBe(versionIn(shown.html, changed.id));
    expect((await act(admin, res, changed.id, 'approve')).status).toBe(303);
    expect(await statusOf(changed.id)).toBe('publish');

    await updateEvent(t, editor.authorization, published.id, { status: 'publish' });
    for (const verb of ['approve', 'decline'] as const) {
      const stale = await act(admin, shown, published.id, verb, { reason: 'Not wanted' });
      expect(stale.status).toBe(409);
      expect(alertText(stale.html)).toContain(`“Published meanwhile ${word}” is no longer pending review: it is published now. Nothing was changed.`);
    }
    expect(await statusOf(published.id)).toBe('publish');
    expect(await t.app.get(ReviewRepository).latestDecline(published.id)).toBeNull();

    await updateEvent(t, editor.authorization, declinedLate.id, { cost: '12' });
    const late = await act(admin, shown, declinedLate.id, 'decline', { reason: 'Too late' });
    expect(late.status).toBe(409);
    expect(alertText(late.html)).toContain('was changed since the queue was shown');
    // The reason typed is kept in its field for a second try.
    expect(card(late.html, declinedLate.id)).toContain('>Too late</textarea>');
    expect(await statusOf(declinedLate.id)).toBe('pending');
    expect(await t.app.get(ReviewRepository).latestDecline(declinedLate.id)).toBeNull();
    expect(textOf((await getPage(t, admin.cookie, `/manage/events/${declinedLate.id}/`)).html)).not.toContain('Declined in review');

    // An event deleted for good meanwhile.
    const gone = await pending('Gone meanwhile');
    const before = await queueWith(admin, gone.id);
    expect((await http(t, admin.authorization).delete(`${API}/events/${gone.id}?force=true`)).status).toBe(200);
    const missing = await act(admin, before, gone.id, 'approve');
    expect(missing.status).toBe(409);
    expect(alertText(missing.html)).toContain('This event no longer exists. Nothing was changed.');
  });

  it('refuses an action without the form token, from another site, or without the version it was shown', async () => {
    const event = await pending('Guarded');
    const shown = await queueWith(admin, event.id);
    const version = versionIn(shown.html, event.id);
    const fastify = t.app.getHttpAdapter().getInstance();
    const post = (headers: Record<string, string>, fields: Record<string, string>) =>
      fastify.inject({
        method: 'POST',
        url: `${QUEUE}${event.id}/decline`,
        headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams(fields).toString(),
      });
    const noToken = await post({ origin: t.baseUrl }, { version, reason: 'Spam' });
    expect(noToken.statusCode).toBe(403);
    expect(textOf(noToken.body)).toContain('The form has expired');
    const wrongToken = await post({ origin: t.baseUrl }, { _csrf: 'not-the-token', version, reason: 'Spam' });
    expect(wrongToken.statusCode).toBe(403);
    const foreign = await post({ origin: 'http://evil.example' }, { _csrf: formToken(shown.html), version, reason: 'Spam' });
    expect(foreign.statusCode).toBe(403);
    const noOrigin = await post({}, { _csrf: formToken(shown.html), version, reason: 'Spam' });
    expect(noOrigin.statusCode).toBe(403);
    const noVersion = await postForm(t, admin.cookie, `${QUEUE}${event.id}/approve`, { _csrf: formToken(shown.html) });
    expect(noVersion.status).toBe(400);
    expect(await statusOf(event.id)).toBe('pending');
    expect(await t.app.get(ReviewRepository).latestDecline(event.id)).toBeNull();
  });
});
