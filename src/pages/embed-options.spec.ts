import { readSetting } from '../config/settings';
import { EMBED_ORIGINS, embedSnippet, embedTheme, keptOptions, readEmbedLimit, readEmbedTheme, readOrigin } from './embed-options';
import { PageError } from './page-parts';

/** What a reader of the embeds' options gets: the value, or the 400 page's message. */
function outcome<T>(read: () => T): T | string {
  try {
    return read();
  } catch (err) {
    if (err instanceof PageError) return `${err.status} ${err.message}`;
    throw err;
  }
}

describe('embed options (pages.md, "On other sites")', () => {
  describe('CALENDAR_EMBED_ORIGINS', () => {
    it.each([
      ['*', ['*']],
      ['  *  ', ['*']],
      ['https://www.example.org', ['https://www.example.org']],
      ['https://www.example.org/', ['https://www.example.org']],
      ['HTTPS://WWW.Example.ORG:443', ['https://www.example.org']],
      ['http://localhost:8080 https://partner.example', ['http://localhost:8080', 'https://partner.example']],
      ['http://127.0.0.2:3001\thttp://[::1]:3001', ['http://127.0.0.2:3001', 'http://[::1]:3001']],
      ['https://café.example', ['https://xn--caf-dma.example']],
      ['https://a.example https://a.example/', ['https://a.example']],
    ])('%j is %j', (text, value) => {
      expect(readSetting(EMBED_ORIGINS, text)).toEqual({ value });
    });

    it('is * when unset', () => {
      expect(readSetting(EMBED_ORIGINS, undefined)).toEqual({ value: ['*'] });
    });

    it.each([
      'www.example.org',
      'https://www.example.org/calendar',
      'https://www.example.org?x=1',
      'https://www.example.org#top',
      'https://user:pw@www.example.org',
      'ftp://files.example.org',
      'javascript:alert(1)',
      'https://*.example.org',
      "'self'",
      "'none'",
      'https://a.example;script-src',
      'https://a.example,https://b.example',
      'https://a.example"',
      '* https://a.example',
    ])('refuses %j, naming the variable', (text) => {
      const read = readSetting(EMBED_ORIGINS, text);
      expect(read).toEqual({ problem: expect.stringMatching(/^CALENDAR_EMBED_ORIGINS must be \*/) });
    });

    it('an origin is only ever written as scheme, host and port', () => {
      for (const text of ['https://a.example/', 'http://[::1]:80', 'https://xn--caf-dma.example:8443']) {
        expect(readOrigin(text)).toMatch(/^https?:\/\/[a-z0-9.\-[\]:]+$/);
      }
    });
  });

  describe('?limit= and ?theme=', () => {
    it.each([
      [undefined, 10],
      ['', 10],
      ['1', 1],
      ['7', 7],
      ['50', 50],
      ['0', '400 limit must be a whole number from 1 to 50.'],
      ['51', '400 limit must be a whole number from 1 to 50.'],
      ['100', '400 limit must be a whole number from 1 to 50.'],
      ['-1', '400 limit must be a whole number from 1 to 50.'],
      ['2.5', '400 limit must be a whole number from 1 to 50.'],
      ['ten', '400 limit must be a whole number from 1 to 50.'],
      [' 5', '400 limit must be a whole number from 1 to 50.'],
      [['5'], '400 limit must be a whole number from 1 to 50.'],
    ])('limit %j: %j', (limit, expected) => {
      expect(outcome(() => readEmbedLimit({ limit }))).toEqual(expected);
    });

    it.each([
      [undefined, 'light'],
      ['', 'light'],
      ['light', 'light'],
      ['dark', 'dark'],
      ['Dark', '400 theme must be light or dark.'],
      ['blue', '400 theme must be light or dark.'],
      [['dark'], '400 theme must be light or dark.'],
    ])('theme %j: %j', (theme, expected) => {
      expect(outcome(() => readEmbedTheme({ theme }))).toEqual(expected);
    });

    it('an error page is shown in the theme asked for when it is one, else light', () => {
      expect([embedTheme({ theme: 'dark' }), embedTheme({ theme: 'blue' }), embedTheme({})]).toEqual(['dark', 'light', 'light']);
    });

    it("the embed's own links carry the options that are not the defaults", () => {
      expect(keptOptions({ limit: 10, theme: 'light' })).toEqual({ limit: undefined, theme: undefined });
      expect(keptOptions({ limit: 3, theme: 'dark' })).toEqual({ limit: 3, theme: 'dark' });
      expect(keptOptions({ theme: 'dark' })).toEqual({ limit: undefined, theme: 'dark' });
    });
  });

  describe('the snippet', () => {
    it('is an iframe with a title, escaped for an HTML attribute', () => {
      expect(embedSnippet('https://cal.example/events/embed/?categories=jazz&tags=live', 'Upcoming events · "Canal" <&> Events')).toBe(
        '<iframe src="https://cal.example/events/embed/?categories=jazz&amp;tags=live" title="Upcoming events · &quot;Canal&quot; &lt;&amp;&gt; Events" width="100%" height="600" loading="lazy"></iframe>',
      );
    });
  });
});
