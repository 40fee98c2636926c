// Abuse of the submission form without a third party (editing.md §4, docs/security.md): a form
// from another site or without its token, the field people leave empty, the signed timestamp
// (missing, forged, under 3 seconds, over a day), more than 5 links, and the hourly limits per
// address and in all. Each refusal is a page (4xx) that says what to do, keeps the values where
// that helps, and writes nothing; refused submissions do not count toward the limits. No test
// waits: the stamps are signed by the app's own service for the time the test needs.
import { SubmissionStamps } from '../../../src/submissions/submission-stamps';
import { alertText, control } from '../../support/manage';
import { tableRows } from '../../support/sql';
import { openForm, type OpenedForm, sendForm, stampFrom, submission } from '../../support/submissions';
import { createTestApp, EXTENSIONS_OFF, type TestApp } from '../../support/test-app';

const ON = { ...EXTENSIONS_OFF, CALENDAR_SUBMISSIONS: 'anyone' };
const HOUR = 3600 * 1000;

/** Every stored row but the editing sessions. */
const stored = (t: TestApp) => tableRows(t, new Set(['sessions']));

/** Sends the form and expects a refusal with this status that wrote nothing; answers the page. */
async function refusedWithout(
  t: TestApp,
  status: number,
  send: () => ReturnType<typeof sendForm>,
): Promise<{ html: string; headers: Record<string, unknown> }> {
  const before = await stored(t);
  const res = await send();
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
  expect(await stored(t)).toEqual(before);
  return { html: res.body, headers: res.headers };
}

describe('refusals of the submission form (editing.md §4)', () => {
  let t: TestApp;
  let form: OpenedForm;

  beforeAll(async () => {
    // Limits high enough that this block's submissions never reach them (the next block tests them).
    t = await createTestApp({ ...ON, CALENDAR_SUBMISSIONS_PER_ADDRESS: '1000', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' });
    await t.userHeader('root', 'administrator');
    form = await openForm(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a form sent from another site, or with neither Origin nor Referer; a Referer of this site is enough', async () => {
    const foreign: Record<string, string>[] = [
      { origin: 'https://elsewhere.example' },
      { origin: '' },
      { origin: '', referer: 'https://elsewhere.example/page' },
    ];
    for (const headers of foreign) {
      const page = await refusedWithout(t, 403, () => sendForm(t, form, submission(), { headers }));
      expect(page.html).toContain('not sent from this site');
    }
    const res = await sendForm(t, form, submission({ title: 'Referred' }), { headers: { origin: '', referer: 'http://127.0.0.1:3000/events/community/add/' } });
    expect(res.statusCode).toBe(303);
  });

  it('refuses a form without its token, or whose token belongs to another browser, and shows it again to send', async () => {
    const other = await openForm(t);
    for (const sent of [
      () => sendForm(t, form, submission({ title: 'Tokenless', _csrf: '' })),
      () => sendForm(t, form, submission({ title: 'Tokenless', _csrf: other.token })),
      () => sendForm(t, { ...form, cookie: '' }, submission({ title: 'Tokenless' })),
    ]) {
      const page = await refusedWithout(t, 403, sent);
      expect(alertText(page.html)).toContain('This form has expired');
      expect(control(page.html, 'Title').value).toBe('Tokenless');
    }
    // The form shown again carries a good token: sent again, it is taken.
    const again = await sendForm(t, { ...form, cookie: '' }, submission({ title: 'Tokenless' }));
    const cookie = again.cookies.find((c) => c.name === 'calendar_submission');
    const token = /name="_csrf" value="([^"]*)"/.exec(again.body)?.[1] as string;
    const retried = await sendForm(t, { ...form, cookie: `calendar_submission=${cookie?.value ?? ''}`, token }, submission({ title: 'Tokenless' }));
    expect(retried.statusCode).toBe(303);
  });

  it('refuses a form whose hidden field was filled in, keeping the values and emptying that field', async () => {
    const page = await refusedWithout(t, 400, () => sendForm(t, form, submission({ title: 'Filled by a program', extra_info: 'http://spam.example' })));
    expect(alertText(page.html)).toContain('could not be taken');
    expect(control(page.html, 'Title').value).toBe('Filled by a program');
    expect(page.html).toContain('<input id="extra_info" name="extra_info" type="text" value=""');
  });

  it('refuses a missing or forged timestamp, and a form sent back after more than a day, with a new stamp', async () => {
    const stamps = t.app.get(SubmissionStamps);
    const good = stampFrom(t, 10_000);
    const [time, signature] = good.split('.');
    for (const stamp of ['', 'yesterday', `${Number(time) - 60_000}.${signature}`, `${time}.${'A'.repeat(43)}`, stampFrom(t, 25 * HOUR)]) {
      const page = await refusedWithout(t, 400, () => sendForm(t, form, submission({ title: 'Stamped', stamp })));
      expect(alertText(page.html)).toMatch(/The form (could not be read|was opened more than a day ago), so nothing was sent/);
      expect(control(page.html, 'Title').value).toBe('Stamped');
      const given = /name="stamp" value="([^"]*)"/.exec(page.html)?.[1] as string;
      expect(given).not.toBe(stamp);
      expect(stamps.read(given)).toEqual({ ok: false, problem: 'early' }); // just given: good in three seconds
    }
    // Just under a day is still taken.
    expect((await sendForm(t, form, submission({ title: 'Stamped', stamp: stampFrom(t, 23 * HOUR) }))).statusCode).toBe(303);
  });

  it('refuses a form sent back under three seconds, keeping its stamp so that it can be sent again a moment later', async () => {
    const stamp = stampFrom(t, 1_000);
    const page = await refusedWithout(t, 429, () => sendForm(t, form, submission({ title: 'Too quick', stamp })));
    expect(page.headers['retry-after']).toBe('3');
    expect(alertText(page.html)).toContain('sent very quickly');
    expect(page.html).toContain(`name="stamp" value="${stamp}"`);
    // Its stamp is taken once three seconds have passed (the app's clock moved, not the test waiting).
    const stamps = t.app.get(SubmissionStamps);
    const real = stamps.now;
    stamps.now = () => real() + 3_000;
    try {
      expect((await sendForm(t, form, submission({ title: 'Too quick', stamp }))).statusCode).toBe(303);
    } finally {
      stamps.now = real;
    }
  });

  it('refuses a description with more than five links, beside the description; five are taken', async () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://site${i}.example/page`).join('\n');
    const page = await refusedWithout(t, 400, () => sendForm(t, form, submission({ title: 'Linky', description: links(6) })));
    expect(control(page.html, 'Description').messages).toContain('The description may hold at most 5 links; remove some and send it again.');
    expect(control(page.html, 'Description').value).toBe(links(6));
    expect((await sendForm(t, form, submission({ title: 'Linky', description: links(5) }))).statusCode).toBe(303);
  });
});

describe('hourly limits of submissions (editing.md §4)', () => {
  it('takes CALENDAR_SUBMISSIONS_PER_ADDRESS from one address an hour; refused submissions do not count', async () => {
    const t = await createTestApp({ ...ON, CALENDAR_SUBMISSIONS_PER_ADDRESS: '2', CALENDAR_SUBMISSIONS_PER_HOUR: '100' });
    try {
      await t.userHeader('root', 'administrator');
      const form = await openForm(t);
      const from = { remoteAddress: '203.0.113.7' };
      // Refused before the write (the hidden field) and by the write (a zone that does not exist): neither counts.
      expect((await sendForm(t, form, submission({ extra_info: 'x' }), from)).statusCode).toBe(400);
      expect((await sendForm(t, form, submission({ timezone: 'Nowhere/At_All' }), from)).statusCode).toBe(400);
      expect((await sendForm(t, form, submission({ title: 'First' }), from)).statusCode).toBe(303);
      expect((await sendForm(t, form, submission({ title: 'Second' }), from)).statusCode).toBe(303);
      const page = await refusedWithout(t, 429, () => sendForm(t, form, submission({ title: 'Third' }), from));
      expect(Number(page.headers['retry-after'])).toBeGreaterThan(3000);
      expect(alertText(page.html)).toContain('You have sent as many events as one person may in an hour');
      expect(control(page.html, 'Title').value).toBe('Third');
      // Refused, it did not count either: still refused, and another address is taken.
      await refusedWithout(t, 429, () => sendForm(t, form, submission({ title: 'Third' }), from));
      expect((await sendForm(t, form, submission({ title: 'Elsewhere' }), { remoteAddress: '198.51.100.4' })).statusCode).toBe(303);
    } finally {
      await t.close();
    }
  });

  it('takes CALENDAR_SUBMISSIONS_PER_HOUR from everybody together', async () => {
    const t = await createTestApp({ ...ON, CALENDAR_SUBMISSIONS_PER_ADDRESS: '100', CALENDAR_SUBMISSIONS_PER_HOUR: '3' });
    try {
      await t.userHeader('root', 'administrator');
      const form = await openForm(t);
      for (const [i, address] of ['192.0.2.1', '192.0.2.2', '192.0.2.3'].entries()) {
        expect((await sendForm(t, form, submission({ title: `Taken ${i}` }), { remoteAddress: address })).statusCode).toBe(303);
      }
      const page = await refusedWithout(t, 429, () => sendForm(t, form, submission({ title: 'One too many' }), { remoteAddress: '192.0.2.4' }));
      expect(alertText(page.html)).toContain('The calendar has taken as many events as it can in an hour');
      expect(Number(page.headers['retry-after'])).toBeGreaterThan(3000);
      expect(control(page.html, 'Title').value).toBe('One too many');
    } finally {
      await t.close();
    }
  });
});
