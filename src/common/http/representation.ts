import { hash } from 'node:crypto';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

/**
 * What the HTTP layer does with a body once a route produced it (beyond.md #3, #4, #11): the
 * strong entity tag, the conditional answer (304), and `br`/`gzip` content coding. Pure helpers
 * here; the hooks that use them are in response-cache.ts.
 */

export type Coding = 'br' | 'gzip';

/** Bodies up to this size go out as they are (beyond.md #11: "responses over 1 KB"). */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * The coding to send for an `Accept-Encoding` header: `br` when allowed, else `gzip`, else none.
 * Between the two the higher q-value wins, br on a tie; `q=0` refuses a coding, and `*` stands
 * for any coding the header does not name.
 */
export function codingFor(header: string | string[] | undefined): Coding | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === '') return null;
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of text.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim());
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gz = q;
    else if (name === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzQ = gz ?? any ?? 0;
  if (brQ <= 0 && gzQ <= 0) return null;
  return brQ >= gzQ ? 'br' : 'gzip';
}

/** Content types worth compressing: text, JSON, iCalendar, XML, JavaScript, SVG. */
export function isCompressible(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false;
  return /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript)|image\/svg\+xml)/i.test(contentType);
}

/**
 * The strong tag of a body: a hash of its bytes (SHA-1 is plenty: the tag names a version, it
 * does not protect one), quoted. A tag names the uncoded body; a coded variant's tag is this one
 * with the coding appended (`variantTag`), so that the variants' tags differ as their bodies do.
 */
export function bodyTag(body: Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

const CODING_SUFFIX: Record<Coding, string> = { br: '-br', gzip: '-gz' };

export function variantTag(tag: string, coding: Coding | null): string {
  return coding === null ? tag : `${tag.slice(0, -1)}${CODING_SUFFIX[coding]}"`;
}

/** The tag of the uncoded body a variant's tag names (a tag without a coding suffix names itself). */
function baseOf(tag: string): string {
  for (const suffix of Object.values(CODING_SUFFIX)) {
    if (tag.endsWith(`${suffix}"`)) return `${tag.slice(0, -suffix.length - 1)}"`;
  }
  return tag;
}

/** The entity tags of an `If-Match` / `If-None-Match` list, or `*`. */
function listedTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/**
 * `If-None-Match` (RFC 9110 §13.1.2): true when the header names this variant's tag, or is `*`
 * (the weak comparison: `W/"x"` matches `"x"`). Then a GET answers 304.
 */
export function noneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  if (typeof header !== 'string') return false;
  const tags = listedTags(header);
  if (tags === '*') return true;
  return tags.some((t) => (t.startsWith('W/') ? t.slice(2) : t) === tag);
}

/**
 * `If-Match` (RFC 9110 §13.1.1, beyond.md #4): true when the header is `*` or names, with the
 * strong comparison (a weak tag never matches), the current body's tag or one of its coded
 * variants' tags.
 */
export function ifMatchAccepts(header: string, currentTag: string): boolean {
  const tags = listedTags(header);
  if (tags === '*') return true;
  return tags.some((t) => !t.startsWith('W/') && baseOf(t) === currentTag);
}

/** Compresses `body` for dynamic answers: brotli at quality 5 and gzip at level 6, both far cheaper than their maximum for nearly the same size. */
export function encode(body: Buffer, coding: Coding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (coding === 'br') {
      brotliCompress(
        body,
        {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          },
        },
        done,
      );
    } else {
      gzip(body, { level: 6 }, done);
    }
  });
}

/** A `Vary` value naming `name` too: `current` (a reply's Vary header) with it added unless named there already. */
export function varyWith(current: unknown, name: string): string {
  if (typeof current !== 'string' || current === '') return name;
  const names = current.split(',').map((s) => s.trim().toLowerCase());
  return names.includes(name.toLowerCase()) || names.includes('*') ? current : `${current}, ${name}`;
}
