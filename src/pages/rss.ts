import { Feed } from 'feed';

/** An RSS channel: what it is called, the page it stands for, its own address. */
export interface RssChannel {
  title: string;
  /** The page the feed stands for. */
  link: string;
  /** The feed's own URL (`atom:link rel="self"`). */
  self: string;
  description: string;
  /** `lastBuildDate`. */
  updated: Date;
}

/** One item, in plain text (no markup is read from it: `<` stays a character). */
export interface RssItem {
  title: string;
  link: string;
  description: string;
  pubDate: Date;
  categories: string[];
}

/**
 * An RSS 2.0 document, written by the `feed` library. Stored text (titles, descriptions, category
 * names) goes in as XML text nodes, never as the library's CDATA sections: it escapes only the
 * first `]]>` of a section (xml-js replaces with a string pattern), so a title holding two would
 * end the section early and the rest would be read as markup. A text node is escaped whole by
 * xml-js (xmlText says how it is handed over).
 */
export function rssDocument(channel: RssChannel, items: RssItem[]): string {
  const feed = new Feed({
    id: channel.link,
    title: xmlText(channel.title),
    description: xmlText(channel.description),
    link: channel.link,
    feed: channel.self,
    updated: channel.updated,
    copyright: '',
  });
  for (const item of items) {
    feed.addItem({
      // Left empty so that the library writes no CDATA title; the text node comes from `extensions`.
      title: '',
      id: item.link,
      link: item.link,
      date: item.pubDate,
      category: item.categories.map((name) => ({ name: xmlText(name) })),
      extensions: [
        { name: 'title', objects: { _text: xmlText(item.title) } },
        { name: 'description', objects: { _text: xmlText(item.description) } },
      ],
    });
  }
  return feed.rss2();
}

/** Characters XML 1.0 cannot hold at all (C0 controls but tab, CR and LF; lone surrogates; U+FFFE, U+FFFF): left out. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text as xml-js's text writer must be given it: without what XML cannot hold, and with `&` written
 * `&amp;`, since the writer first turns every `&amp;` back into `&` (so as not to escape twice)
 * and then escapes `&`, `<` and `>`: a title that says `&amp;` keeps saying it.
 */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;');
}
