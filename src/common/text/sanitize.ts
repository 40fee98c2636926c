// Input sanitisation for callers without the unfiltered-HTML capability — spec README.md §8.
import sanitize from 'sanitize-html';

/**
 * Elements dropped together with their content. The first five are sanitize-html's own list
 * (`xmp` must stay: it is parsed as raw text); the rest hold nothing a reader should see.
 */
const NON_TEXT_TAGS = ['script', 'style', 'textarea', 'option', 'xmp', 'iframe', 'noscript', 'noembed', 'noframes', 'template', 'title'];

/**
 * Ordinary formatting HTML, close to what WordPress lets authors post. Everything else —
 * and in particular script, style, iframe, object, embed, form, input, button (§8) and svg,
 * math, meta, link, base — is dropped; the text inside non-`NON_TEXT_TAGS` is kept.
 */
const ALLOWED_TAGS = [...sanitize.defaults.allowedTags, 'img', 'del', 'ins', 'strike', 'big', 'center', 'details', 'summary'];

/** An allowlist, so no `on*` attribute (onclick, onerror, onload, …) can get through. */
const ALLOWED_ATTRIBUTES: Record<string, sanitize.AllowedAttribute[]> = {
  '*': ['class', 'id', 'title', 'lang', 'dir', 'style', 'role', 'aria-*'],
  a: ['href', 'name', 'target', 'rel', 'hreflang', 'download'],
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite', 'datetime'],
  ins: ['cite', 'datetime'],
  time: ['datetime'],
  data: ['value'],
  ol: ['start', 'reversed', 'type'],
  ul: ['type'],
  li: ['value'],
  table: ['summary', 'width'],
  col: ['span', 'width'],
  colgroup: ['span', 'width'],
  td: ['colspan', 'rowspan', 'headers', 'width', 'align', 'valign'],
  th: ['colspan', 'rowspan', 'headers', 'scope', 'abbr', 'width', 'align', 'valign'],
  details: ['open'],
};

const LENGTH = /^-?\d+(?:\.\d+)?(?:px|em|rem|%|pt)?$/;
const COLOUR = /^(?:#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i;
/** Inline styles the classic editor writes (alignment, indent, colour); any other is dropped. */
const ALLOWED_STYLES: Record<string, Record<string, RegExp[]>> = {
  '*': {
    'text-align': [/^(?:left|right|center|justify)$/],
    'text-decoration': [/^(?:none|underline|line-through|overline)(?: [a-z]+)*$/],
    'font-weight': [/^(?:normal|bold|bolder|lighter|[1-9]00)$/],
    'font-style': [/^(?:normal|italic|oblique)$/],
    color: [COLOUR],
    'background-color': [COLOUR],
    'padding-left': [LENGTH],
    'margin-left': [LENGTH],
    width: [LENGTH],
    height: [LENGTH],
  },
};

const RICH_HTML: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  allowedStyles: ALLOWED_STYLES,
  nonTextTags: NON_TEXT_TAGS,
  disallowedTagsMode: 'discard',
  // javascript:, vbscript:, data: … are not in these lists, so such URLs are removed from
  // href/src/cite; images may also be inline data (an <img> cannot run script).
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'ftp'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: true,
  // Entities must be decoded while parsing: the URL check then sees `java&#x09;script:` as
  // the javascript: URL a browser would see.
  parser: { decodeEntities: true },
};

/**
 * Cleans rich HTML (description, excerpt) from a caller without unfiltered HTML (§8):
 * `<p onclick="x()">Hi <script>alert(1)</script>there</p>` → `<p>Hi there</p>`.
 * Text is kept; the only rewriting of text is the entity normalisation of `keepTextAsWritten`.
 */
export function sanitizeHtml(html: string, keptClasses?: RegExp): string {
  // `keptClasses`: only class names it matches stay (all stay without it).
  return keepTextAsWritten(sanitize(html, keptClasses === undefined ? RICH_HTML : { ...RICH_HTML, allowedClasses: { '*': [keptClasses] } }));
}

/**
 * sanitize-html re-escapes all text it outputs (`Tom & Jerry` → `Tom &amp; Jerry`). This undoes
 * the escaping wherever the character cannot start markup or a character reference, so the
 * result displays the same and reads like the input. It runs on the whole output (text and
 * double-quoted attribute values, where the same reasoning holds) because sanitize-html hands
 * text to its `textFilter` in pieces split at entities, and a piece does not show what follows.
 */
function keepTextAsWritten(html: string): string {
  return (
    html
      .replace(/&amp;(?![A-Za-z0-9#])/g, '&')
      .replace(/&lt;(?=[\s\d=])/g, '<')
      .replace(/&gt;/g, '>')
      // decoded &nbsp; would otherwise come back as an invisible U+00A0
      .replace(/\u00a0/g, '&nbsp;')
  );
}

const PLAIN_TEXT: sanitize.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: NON_TEXT_TAGS,
  disallowedTagsMode: 'discard',
};

/**
 * Removes every tag from a title or name (§8), script/style with their content; keeps the
 * text exactly as written, entities included (`Tom &amp; Jerry` stays so, `&lt;b&gt;` stays
 * encoded). A `<` that could open a tag stays escaped as `&lt;`, so that text shown as HTML by
 * a client cannot form a tag (`<<b>img …>` must not become `<img …>`).
 */
export function sanitizePlainText(text: string): string {
  // Hide every `&` behind a character the input does not contain: nothing is decoded while
  // parsing (no attribute is kept, so decoding is not needed for safety), and every
  // `&lt;`/`&gt;` in the output is then sanitize-html's own escaping, safe to undo.
  const marker = unusedCharacter(text);
  const cleaned = sanitize(text.replaceAll('&', marker), PLAIN_TEXT);
  return cleaned
    .replace(/&lt;(?=[\s\d=])/g, '<')
    .replace(/&gt;/g, '>')
    .replaceAll(marker, '&');
}

/**
 * A private-use character absent from `text`: the Basic Multilingual Plane's 6,400 first, then
 * the supplementary planes' 131,068 (a text holding all of those would be megabytes long).
 */
function unusedCharacter(text: string): string {
  const ranges: [number, number][] = [
    [0xe000, 0xf8ff],
    [0xf0000, 0xffffd],
    [0x100000, 0x10fffd],
  ];
  for (const [first, last] of ranges) {
    for (let code = first; code <= last; code++) {
      const candidate = String.fromCodePoint(code);
      if (!text.includes(candidate)) return candidate;
    }
  }
  throw new Error('text uses every private-use character');
}
