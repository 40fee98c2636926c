// Automatic paragraphs and plain-text helpers — spec README.md §8 and resources.md §7.

/** Tags that already open a block: a paragraph starting with one is not wrapped in `<p>`. */
const BLOCK_TAGS = ['p', 'div', 'ul', 'ol', 'li', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'form', 'figure', 'section'];
/**
 * `<div`, `<DIV class=…>`, `<hr/>`, and also a closing `</div>`: a paragraph that starts by
 * closing a block (text after a blank line inside a `<div>`) must not be wrapped either.
 */
const STARTS_WITH_BLOCK = new RegExp(`^</?(?:${BLOCK_TAGS.join('|')})(?=[\\s/>])`, 'i');

/**
 * WordPress-style automatic paragraphs (§8): `Line 1\nLine 2\n\nPara 2` →
 * `<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>`. Empty or missing text → `""`.
 */
export function autop(text: string | null | undefined): string {
  if (!text) return '';
  return (
    text
      .replace(/\r\n?/g, '\n')
      // a blank line is two or more newlines, possibly with whitespace-only lines between
      .split(/\n[^\S\n]*\n\s*/)
      .map((paragraph) => paragraph.trim())
      .filter((paragraph) => paragraph !== '')
      .map((paragraph) => (STARTS_WITH_BLOCK.test(paragraph) ? paragraph : wrapParagraph(paragraph)))
      .join('\n')
      .trim()
  );
}

function wrapParagraph(paragraph: string): string {
  // A line already ending in <br> keeps its own break instead of getting a second one.
  const lines = paragraph.replace(/(?<!<br\s*\/?>[^\S\n]*)[^\S\n]*\n/gi, '<br />\n');
  return `<p>${lines}</p>`;
}

/** Named references decoded by `stripTags`: the ones WordPress content commonly carries. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  AMP: '&',
  LT: '<',
  GT: '>',
  QUOT: '"',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  sbquo: '\u201a',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bdquo: '\u201e',
  laquo: '\u00ab',
  raquo: '\u00bb',
  bull: '\u2022',
  middot: '\u00b7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  times: '\u00d7',
  divide: '\u00f7',
  shy: '\u00ad',
};

/** Decodes numeric references and the names above; anything else is left as written. */
export function decodeEntities(text: string): string {
  const reference = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]*));/g;
  return text.replace(reference, (ref: string, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? ref;
    const codePoint = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
    const valid = codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
    return valid ? String.fromCodePoint(codePoint) : ref;
  });
}

/** Elements whose content is not text a reader sees. */
const NON_TEXT_ELEMENTS = /<(script|style|template|noscript|iframe|textarea)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Block and line-break tags separate words, so they become a space; inline tags vanish. */
const SEPARATING_TAG =
  /<\/?(?:p|div|br|hr|li|ul|ol|dl|dt|dd|tr|td|th|table|thead|tbody|tfoot|caption|h[1-6]|blockquote|pre|figure|figcaption|section|article|aside|header|footer|nav|address|form|img)\b[^>]*>/gi;
const ANY_TAG = /<!--[\s\S]*?-->|<\/?[a-z][^>]*>/gi;

/**
 * Plain text of an HTML fragment: tags removed (script/style with their content), common
 * entities decoded, whitespace runs collapsed to one space, trimmed. For JSON-LD (§7).
 */
export function stripTags(html: string): string {
  // Decode after removing tags, then remove what decoding turned into tags: the result is plain
  // text that no reader can take for markup (an encoded `&lt;script&gt;` must not come back as
  // a script element where the text is embedded, e.g. JSON-LD in a page). A `<` that opens no
  // tag (`a < b`) stays.
  let text = html;
  for (let pass = 0; pass < 4; pass++) {
    const decoded = decodeEntities(removeTags(text));
    if (!MARKUP_START.test(decoded)) return squeeze(decoded);
    if (decoded === text) break; // a tag left open (`<img src=x`): no pass removes it
    text = decoded;
  }
  // What still opens markup loses its `<` to a look-alike (U+2039), which opens nothing.
  return squeeze(removeTags(text).replace(/<(?=[a-z!/?])/gi, '\u2039'));
}

/** `<` followed by what can begin a tag, comment or declaration. */
const MARKUP_START = /<[a-z!/?]/i;

function removeTags(html: string): string {
  return html.replace(NON_TEXT_ELEMENTS, ' ').replace(SEPARATING_TAG, ' ').replace(ANY_TAG, '');
}

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Where a line ends in HTML: a line break, and the end of a list item or table row. */
const LINE_END = /<br\b[^>]*>|<\/(?:li|dt|dd|tr)\s*>/gi;
/** Where a paragraph ends: the end of a block. */
const PARAGRAPH_END = /<\/(?:p|div|ul|ol|dl|table|h[1-6]|blockquote|pre|figure|section|article|aside|header|footer|address|form)\s*>|<hr\b[^>]*>/gi;
/** Private-use characters that stand for those breaks while stripTags removes the tags; whitespace to it, so they survive. */
const LINE_MARK = '\ue000';
const PARAGRAPH_MARK = '\ue001';

/**
 * Plain text of an HTML fragment that keeps its lines (iCalendar DESCRIPTION, ical.md): like
 * stripTags, but a line break or the end of a list item or table row starts a new line, and
 * the end of a paragraph or other block leaves a blank line. Source newlines are spaces, as
 * in HTML.
 */
export function htmlToText(html: string): string {
  const marked = html
    .replace(/[\ue000\ue001]/g, '')
    .replace(LINE_END, (tag) => ` ${LINE_MARK}${tag}`)
    .replace(PARAGRAPH_END, (tag) => ` ${PARAGRAPH_MARK}${tag}`);
  return stripTags(marked)
    .replaceAll(LINE_MARK, '\n')
    .replaceAll(PARAGRAPH_MARK, '\n\n')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The first `n` whitespace-separated words of `text`, joined by single spaces, without an
 * ellipsis (JSON-LD `description`: "the first 55 words of the description with tags removed").
 */
export function firstWords(text: string, n: number): string {
  if (n <= 0) return '';
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, n)
    .join(' ');
}

/**
 * A JSON-LD value with every string made plain text (stripTags) where it holds markup: names
 * and addresses stored as given by callers with unfiltered HTML, too. JSON-LD is plain text by
 * schema.org, and pages embed it in a script element.
 */
export function plainJsonLd<T>(value: T): T {
  if (typeof value === 'string') return (MARKUP_START.test(value) ? stripTags(value) : value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Copied only where something changed (mostly the description): the rest is returned as it
  // came, which spares an event's presentation a copy of its whole JSON-LD.
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item: unknown, i) => {
      const plain = plainJsonLd(item);
      if (plain !== item) (copy ??= [...value])[i] = plain;
    });
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const plain = plainJsonLd(item);
    if (plain !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = plain;
  }
  return (copy ?? value) as T;
}
