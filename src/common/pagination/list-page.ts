import type { ApiLinks } from '../http/api-links';
import { fitsInHeader } from '../http/header-size';
/**
 * A list answer: the body the client reads plus the totals that go into the
 * X-TEC-Total / X-TEC-TotalPages headers (spec resources.md §8.3), set by ListHeadersInterceptor.
 */
export class ListPage<T extends object = Record<string, unknown>> {
  // `body` may be a JsonText: a body serialised ahead, sent as it is.
  constructor(
    readonly body: T,
    readonly total: number,
    readonly totalPages: number,
    /** The neighbours of this page, for the `Link` header (beyond.md #10); the same URLs as the body's. */
    readonly neighbours: { next?: string; previous?: string } = {},
  ) {}

  /**
   * RFC 8288 `Link` value with rel="next" / rel="prev", or undefined when the page has no
   * neighbour, or when the value would not fit in a header (MAX_HEADER_BYTES: URLs that repeat a
   * long query, such as thousands of `include` ids). Then it is left out whole rather than in
   * part, so that no client reads "no previous page" from it: the body's next_rest_url and
   * previous_rest_url carry the same URLs.
   */
  get linkHeader(): string | undefined {
    const links: string[] = [];
    if (this.neighbours.next !== undefined) links.push(`<${this.neighbours.next}>; rel="next"`);
    if (this.neighbours.previous !== undefined) links.push(`<${this.neighbours.previous}>; rel="prev"`);
    const value = links.join(', ');
    return links.length > 0 && fitsInHeader('Link', value) ? value : undefined;
  }
}

export const totalPages = (total: number, perPage: number): number => (total === 0 ? 0 : Math.ceil(total / perPage));

export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/**
 * `rest_url` and its neighbours (spec resources.md §8.2): `params` describe the current
 * request in the order they should appear; `page` is replaced (next) or dropped when it would
 * be 1 (previous).
 */
export function pageLinks(links: ApiLinks, path: string, params: Record<string, string>, page: number, has: { next: boolean; previous: boolean }): PageLinks {
  const url = (p: Record<string, string>) => links.href(path, new URLSearchParams(p).toString());
  const out: PageLinks = { rest_url: url(params) };
  if (has.next) out.next_rest_url = url(withPage(params, page + 1));
  if (has.previous) out.previous_rest_url = url(withPage(params, page - 1));
  return out;
}

function withPage(params: Record<string, string>, page: number): Record<string, string> {
  const out: Record<string, string> = {};
  let placed = false;
  for (const [k, v] of Object.entries(params)) {
    if (k === 'page') {
      placed = true;
      if (page > 1) out.page = String(page);
    } else out[k] = v;
  }
  if (!placed && page > 1) out.page = String(page);
  return out;
}

/** Raw query values as a client wrote them, arrays as comma lists. */
export function rawParam(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((v) => rawParam(v) ?? '').join(',');
  if (typeof value === 'object')
    return Object.values(value as Record<string, unknown>)
      .map((v) => rawParam(v) ?? '')
      .join(',');
  return String(value);
}

/**
 * A JSON body already serialised, as UTF-8 bytes (for lists assembled from cached item texts,
 * so a page is neither parsed, stringified nor encoded again on every request: a page of 50
 * built as one string spent a third of its time joining it and encoding it for the socket).
 * Sent as application/json.
 */
export class JsonText {
  readonly bytes: Buffer;

  constructor(body: string | Buffer) {
    this.bytes = typeof body === 'string' ? Buffer.from(body) : body;
  }

  /**
   * `{...before, "key": [<items joined>], ...after}`: the members of `before`, then `arrayKey`
   * with the items, then the members of `after`, each in order.
   */
  static envelope(arrayKey: string, items: Buffer[], after: Record<string, unknown>, before: Record<string, unknown> = {}): JsonText {
    const head = members(before);
    const tail = members(after);
    const parts: Buffer[] = [Buffer.from(`{${head}${head === '' ? '' : ','}${JSON.stringify(arrayKey)}:[`)];
    items.forEach((item, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(item);
    });
    parts.push(Buffer.from(`]${tail === '' ? '' : ','}${tail}}`));
    return new JsonText(Buffer.concat(parts));
  }
}

/** `{...o, "key": <raw>}` as UTF-8 JSON, with `raw` (JSON text already serialised) put in as it is, last. */
export function jsonWithRaw(o: Record<string, unknown>, key: string, raw: Buffer): Buffer {
  const head = members(o);
  return Buffer.concat([Buffer.from(`{${head}${head === '' ? '' : ','}${JSON.stringify(key)}:`), raw, CLOSE]);
}

/** An object's members as JSON text, without the braces. */
function members(o: Record<string, unknown>): string {
  return JSON.stringify(o).slice(1, -1);
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
