// The XSS payload table through the public pages (pages.md): an administrator's text is stored
// as sent (unfiltered HTML), so the pages themselves must make every payload harmless: text
// escaped, descriptions cleaned again, links only http(s), and JSON-LD that cannot end its
// script element.
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { makeUsers } from '../../support/api';
import { XSS_PAYLOADS } from '../../support/xss-payloads';

type Json = Record<string, unknown>;

const LD_SCRIPT = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g;
/** Elements no page of ours has and no stored text may bring. */
const FORBIDDEN = new Set(['script', 'iframe', 'object', 'embed', 'base', 'svg', 'math', 'style', 'template', 'frame', 'frameset', 'applet', 'noscript']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'poster', 'xlink:href', 'srcset']);
/** A tag as the pages write them: attribute values always double-quoted (the template engine and the sanitiser both do). */
const TAG = /<\/?([a-zA-Z][\w-]*)((?:\s+[^\s=>"'/]+(?:="[^"]*")?)*)\s*\/?>|<!doctype html>|<!--[\s\S]*?-->/g;
const ATTRIBUTE = /\s+([^\s=>"'/]+)(?:="([^"]*)")?/g;

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&amp;/g, '&');

/**
 * What in a page a browser would run: JSON-LD blocks that are not plain JSON (or hold a `<`),
 * forbidden elements, event-handler attributes, script URLs, and any `<` that is not one of
 * the page's own well-formed tags (markup the tokenizer cannot read is markup we did not write).
 */
function activeContent(html: string): string[] {
  const problems: string[] = [];
  const rest = html.replace(LD_SCRIPT, (_, json: string) => {
    if (json.includes('<')) problems.push(`JSON-LD holds "<": ${json.slice(0, 80)}`);
    try {
      JSON.parse(json);
    } catch {
      problems.push(`JSON-LD does not parse: ${json.slice(0, 80)}`);
    }
    return '';
  });
  let tags = 0;
  for (const m of rest.matchAll(TAG)) {
    tags += 1;
    const name = (m[1] ?? '').toLowerCase();
    if (FORBIDDEN.has(name)) problems.push(`element ${m[0].slice(0, 80)}`);
    for (const a of (m[2] ?? '').matchAll(ATTRIBUTE)) {
      const attr = a[1].toLowerCase();
      const value = decode(a[2] ?? '')
        .replace(/[\u0000-\u0020]/g, '')
        .toLowerCase();
      if (attr.startsWith('on')) problems.push(`handler ${m[0].slice(0, 80)}`);
      if (attr === 'style' && /expression|javascript|url\(/.test(value)) problems.push(`style ${m[0].slice(0, 80)}`);
      if (attr === 'http-equiv') problems.push(`meta ${m[0].slice(0, 80)}`);
      if (URL_ATTRIBUTES.has(attr) && /^(javascript|vbscript|data):/.test(value)) problems.push(`url ${m[0].slice(0, 80)}`);
    }
  }
  const opened = (rest.match(/</g) ?? []).length;
  if (opened !== tags) problems.push(`${opened - tags} "<" outside the page's own tags`);
  return problems;
}

describe('pages: the XSS payload table', () => {
  let t: TestApp;
  let admin: string;
  const day = `${DateTime.now().year + 1}-03-01`;
  const written: { n: number; event: Json }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin.authorization;
    for (const [n, payload] of XSS_PAYLOADS.entries()) {
      const v = (field: string) => `P${n}${field} ${payload}`;
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({
          title: v('t'),
          description: v('d'),
          excerpt: v('e'),
          cost: v('c'),
          status: 'publish',
          start_date: `${day} 10:00`,
          end_date: `${day} 11:00`,
          venue: { venue: v('v'), address: v('a'), city: v('ci'), country: v('co'), description: v('vd'), phone: v('ph') },
          organizer: [{ organizer: v('o'), description: v('od'), phone: v('oph'), email: v('oe') }],
          categories: [v('cat')],
          tags: [v('tag')],
        });
      expect(res.status).toBe(201);
      written.push({ n, event: res.body as Json });
    }
  });
  afterAll(async () => t?.close());

  it('has the whole table stored as sent (the pages get the worst case)', () => {
    expect(written).toHaveLength(XSS_PAYLOADS.length);
    expect(written[0].event.title).toBe(`P0t ${XSS_PAYLOADS[0]}`);
  });

  it.each(XSS_PAYLOADS.map((payload, n) => [n, payload]))('payload %#: %s', async (n) => {
    const { event } = written[Number(n)];
    const api = (
      await http(t)
        .get(`${API}/events/${event.id as number}`)
        .expect(200)
    ).body as Json;
    const pages = [
      event.url,
      (event.venue as Json).url,
      (event.organizer as Json[])[0].url,
      (event.categories as Json[])[0].url,
      (event.tags as Json[])[0].url,
    ] as string[];
    for (const url of pages) {
      const res = await http(t).get(new URL(url).pathname);
      expect([url, res.status]).toEqual([url, 200]);
      expect([url, activeContent(res.text)]).toEqual([url, []]);
    }
    const html = (await http(t).get(new URL(event.url as string).pathname)).text;
    // The title is on the page as text, and the JSON-LD is the API's.
    expect(html).toContain(`<h1 class="p-name">P${n}t`);
    const ld = [...html.matchAll(LD_SCRIPT)].map((m) => JSON.parse(m[1]) as Json);
    expect(ld).toEqual([api.json_ld]);
  });

  it('the list, month and day views that show them all stay inert', async () => {
    for (const path of ['/events/?search=P1t', `/events/month/${day.slice(0, 7)}/`, `/events/${day}/`, `/events/${day}/?page=2`, `/events/${day}/?page=3`]) {
      const res = await http(t).get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect([path, activeContent(res.text)]).toEqual([path, []]);
    }
  });

  it('the checker itself finds active content (each check can fail)', () => {
    expect(activeContent('<p>ok</p>')).toEqual([]);
    expect(activeContent('<script>alert(1)</script>')).not.toEqual([]);
    expect(activeContent('<img src="x" onerror="alert(1)">')).not.toEqual([]);
    expect(activeContent('<a href="jav&#x09;ascript:alert(1)">x</a>')).not.toEqual([]);
    expect(activeContent('<p>a <b</p>')).not.toEqual([]);
    expect(activeContent('<script type="application/ld+json">{"a":"</script><script>alert(1)</script>"}</script>')).not.toEqual([]);
    expect(activeContent('<meta http-equiv="refresh" content="0">')).not.toEqual([]);
  });
});
