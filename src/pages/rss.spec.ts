import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { rssDocument, RssItem } from './rss';

// The RSS of `/events/feed/` (compat.md, "TEC's public URLs"), read back by an XML parser: what
// stored text says is what a reader gets, whatever characters it holds.

const channel = {
  title: 'Upcoming events · Tom & <Jerry>',
  link: 'http://site.test/events/?search=a&categories=b',
  self: 'http://site.test/events/feed/?search=a&categories=b',
  description: 'The upcoming events of Tom & <Jerry>',
  updated: new Date(Date.UTC(2030, 4, 1, 8, 30)),
};

const item = (over: Partial<RssItem> = {}): RssItem => ({
  title: 'A concert',
  link: 'http://site.test/event/a-concert/',
  description: 'Music all night.',
  pubDate: new Date(Date.UTC(2030, 4, 10, 19)),
  categories: [],
  ...over,
});

/** The document parsed: `rss.channel`, its items always a list. */
function read(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'item' || name === 'category' });
  return parser.parse(xml) as { rss: { '@_version': string; channel: Record<string, unknown> & { item?: Record<string, unknown>[] } } };
}

describe('rssDocument', () => {
  it('is RSS 2.0: the channel, its self link, and per item title, link, guid, description, pubDate and categories', () => {
    const { rss } = read(rssDocument(channel, [item({ categories: ['Music', 'Live'] })]));
    expect(rss['@_version']).toBe('2.0');
    expect(rss.channel).toMatchObject({
      title: channel.title,
      link: channel.link,
      description: channel.description,
      lastBuildDate: 'Wed, 01 May 2030 08:30:00 GMT',
      'atom:link': { '@_href': channel.self, '@_rel': 'self', '@_type': 'application/rss+xml' },
    });
    expect(rss.channel.item).toEqual([
      {
        title: 'A concert',
        link: 'http://site.test/event/a-concert/',
        guid: 'http://site.test/event/a-concert/',
        description: 'Music all night.',
        pubDate: 'Fri, 10 May 2030 19:00:00 GMT',
        category: ['Music', 'Live'],
      },
    ]);
  });

  it.each([
    ['markup characters', 'Rock & Roll <Live> "tonight" it\'s > all'],
    ['a CDATA end, twice, and markup after it', 'a]]>b]]><script>x</script>'],
    ['an entity written out', 'R&amp;B &lt;3 &#38;'],
    ['a long title in many scripts', `Fête — 音楽 🎷 ${'x'.repeat(300)}`],
  ])('keeps %s as the text it is', (_what, text) => {
    const { rss } = read(rssDocument(channel, [item({ title: text, description: text, categories: [text] })]));
    expect(rss.channel.item![0]).toMatchObject({ title: text, description: text, category: [text] });
  });

  it('leaves out what XML cannot hold (control characters, lone surrogates)', () => {
    const { rss } = read(rssDocument(channel, [item({ title: 'bell\u0007 and \uD800 tab\tend', description: '\u0000' })]));
    expect(rss.channel.item![0]).toMatchObject({ title: 'bell and  tab\tend', description: '' });
  });

  it('has no item when nothing is listed', () => {
    const { rss } = read(rssDocument(channel, []));
    expect(rss.channel.item).toBeUndefined();
    expect(rss.channel.title).toBe(channel.title);
  });
});
