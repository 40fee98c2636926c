import type { IncomingMessage } from 'node:http';
import { ApiLinks, currentLinks, linksOfForm, rewriteApiUrl, withLinks } from './api-links';

const rewrite = (url: string) => {
  const req = { url } as IncomingMessage;
  return { to: rewriteApiUrl(req), form: req.apiForm };
};

describe('rewriteApiUrl (compat.md: the WordPress paths route as ours)', () => {
  it('routes /wp-json/tribe/events/v1/… as /calendar/events/v1/…, query kept as written', () => {
    expect(rewrite('/wp-json/tribe/events/v1/events?per_page=5&search=a%20b')).toEqual({
      to: '/calendar/events/v1/events?per_page=5&search=a%20b',
      form: { kind: 'wp-json' },
    });
    expect(rewrite('/wp-json/tribe/events/v1')).toEqual({ to: '/calendar/events/v1', form: { kind: 'wp-json' } });
    expect(rewrite('/wp-json/tribe/events/v1/')).toEqual({ to: '/calendar/events/v1/', form: { kind: 'wp-json' } });
  });

  it('leaves our own paths, and look-alikes, as they are', () => {
    for (const url of ['/calendar/events/v1/events', '/wp-json/tribe/events/v10/events', '/wp-json/tribe/events/v1x', '/events/?rest_route=/tribe/events/v1']) {
      expect(rewrite(url)).toEqual({ to: url, form: undefined });
    }
  });

  it('marks the WordPress index /wp-json and /wp-json/', () => {
    expect(rewrite('/wp-json/')).toEqual({ to: '/wp-json/', form: { kind: 'wp-json' } });
  });

  it('routes ?rest_route= (on / and /index.php) with the other parameters kept in order', () => {
    expect(rewrite('/?rest_route=/tribe/events/v1/events/5&_fields=id')).toEqual({
      to: '/calendar/events/v1/events/5?_fields=id',
      form: { kind: 'rest-route', namespace: 'tribe/events/v1' },
    });
    expect(rewrite('/index.php?page=2&rest_route=%2Fcalendar%2Fevents%2Fv1%2Ftags')).toEqual({
      to: '/calendar/events/v1/tags?page=2',
      form: { kind: 'rest-route', namespace: 'calendar/events/v1' },
    });
    expect(rewrite('/?rest_route=/')).toEqual({ to: '/wp-json', form: { kind: 'rest-route', namespace: 'tribe/events/v1' } });
  });

  it('sends a rest_route of another namespace, or one that is not a path, to no route', () => {
    for (const url of ['/?rest_route=/wp/v2/posts', '/?rest_route=%E0%A4%A', '/?rest_route=events', '/?rest_route=/tribe/events/v1x']) {
      expect(rewrite(url).form).toBeUndefined();
      expect(rewrite(url).to).toBe('/wp-json/rest_route');
    }
    expect(rewrite('/?page=2')).toEqual({ to: '/?page=2', form: undefined });
  });
});

describe('ApiLinks: one place writes links, in the form of the request', () => {
  const base = 'https://cal.example/sub';

  it('writes each form with its query joiner', () => {
    expect(ApiLinks.canonical(base).href('/events/7')).toBe('https://cal.example/sub/calendar/events/v1/events/7');
    expect(ApiLinks.wpJson(base).href('/events/', 'page=2')).toBe('https://cal.example/sub/wp-json/tribe/events/v1/events/?page=2');
    expect(ApiLinks.restRoute(base, 'tribe/events/v1').href('/events/', 'page=2')).toBe('https://cal.example/sub/?rest_route=/tribe/events/v1/events/&page=2');
    expect(ApiLinks.wpJson(base).href()).toBe('https://cal.example/sub/wp-json/tribe/events/v1');
  });

  it('names the index and the OpenAPI server of each form', () => {
    expect(ApiLinks.canonical(base).indexHref()).toBe('https://cal.example/sub/');
    expect(ApiLinks.wpJson(base).indexHref()).toBe('https://cal.example/sub/wp-json/');
    expect(ApiLinks.restRoute(base, 'tribe/events/v1').indexHref()).toBe('https://cal.example/sub/?rest_route=/');
    expect(ApiLinks.restRoute(base, 'tribe/events/v1').serverUrl()).toBe('https://cal.example/sub/wp-json/tribe/events/v1/');
    expect(ApiLinks.restRoute(base, 'calendar/events/v1').serverUrl()).toBe('https://cal.example/sub/calendar/events/v1/');
  });

  it('gives each form its own cache key, ours the empty one', () => {
    const keys = [
      ApiLinks.canonical(base),
      ApiLinks.wpJson(base),
      ApiLinks.restRoute(base, 'tribe/events/v1'),
      ApiLinks.restRoute(base, 'calendar/events/v1'),
    ].map((l) => l.key);
    expect(keys[0]).toBe('');
    expect(new Set(keys).size).toBe(4);
  });

  it('is the canonical form outside a request, and the request form inside withLinks, across awaits', async () => {
    expect(currentLinks(base).key).toBe('');
    const seen = await withLinks(linksOfForm(base, { kind: 'wp-json' }), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentLinks(base).href('/tags');
    });
    expect(seen).toBe('https://cal.example/sub/wp-json/tribe/events/v1/tags');
    expect(currentLinks(base).href('/tags')).toBe('https://cal.example/sub/calendar/events/v1/tags');
  });
});
