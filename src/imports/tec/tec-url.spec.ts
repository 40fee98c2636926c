import { candidateRoots, endpoint, fittingKey, originOfGlobalId, wpCoreRoot } from './tec-url';

describe('candidateRoots', () => {
  it('a site root: its /wp-json path, itself, its ?rest_route= form', () => {
    expect(candidateRoots('https://site.example/blog/')).toEqual([
      'https://site.example/blog/wp-json/tribe/events/v1',
      'https://site.example/blog',
      'https://site.example/blog/?rest_route=%2Ftribe%2Fevents%2Fv1',
    ]);
  });
  it('a URL that names the namespace is used as it is', () => {
    expect(candidateRoots('https://site.example/wp-json/tribe/events/v1/')).toEqual(['https://site.example/wp-json/tribe/events/v1']);
  });
  it("WordPress's REST root: the namespace under it", () => {
    expect(candidateRoots('https://site.example/blog/wp-json/')).toEqual(['https://site.example/blog/wp-json/tribe/events/v1']);
    expect(candidateRoots('https://site.example/wp-json')).toEqual(['https://site.example/wp-json/tribe/events/v1']);
  });
  it('a ?rest_route= URL is used as it is', () => {
    const [only, ...rest] = candidateRoots('https://site.example/?rest_route=/tribe/events/v1');
    expect(rest).toEqual([]);
    expect(new URL(only).searchParams.get('rest_route')).toBe('/tribe/events/v1');
  });
});

describe('endpoint', () => {
  it('appends the path and the parameters', () => {
    expect(endpoint('https://s.example/wp-json/tribe/events/v1', 'events', { per_page: 50, page: 2 })).toBe(
      'https://s.example/wp-json/tribe/events/v1/events?per_page=50&page=2',
    );
  });
  it('puts the path inside rest_route for such roots', () => {
    const url = new URL(endpoint('https://s.example/?rest_route=/tribe/events/v1', 'venues', { page: 1 }));
    expect(url.searchParams.get('rest_route')).toBe('/tribe/events/v1/venues');
    expect(url.searchParams.get('page')).toBe('1');
  });
});

describe('wpCoreRoot', () => {
  it('is the wp/v2 root next to a /wp-json TEC root', () => {
    expect(wpCoreRoot('https://s.example/x/wp-json/tribe/events/v1')).toBe('https://s.example/x/wp-json/wp/v2');
    expect(new URL(wpCoreRoot('https://s.example/?rest_route=/tribe/events/v1')!).searchParams.get('rest_route')).toBe('/wp/v2');
  });
  it('is null for a root elsewhere (this service under /calendar/events/v1)', () => {
    expect(wpCoreRoot('https://s.example/calendar/events/v1')).toBeNull();
  });
});

describe('originOfGlobalId', () => {
  it('is the host part of a global id, lower case', () => {
    expect(originOfGlobalId('Site.Example?id=12')).toBe('site.example');
    expect(originOfGlobalId('site.example/sub?id=3')).toBe('site.example/sub');
  });
  it('is null for what is not a global id', () => {
    expect(originOfGlobalId('?id=3')).toBeNull();
    expect(originOfGlobalId('site.example')).toBeNull();
    expect(originOfGlobalId(12)).toBeNull();
  });
});

it('fittingKey keeps short keys and digests long ones to fit the mapping column', () => {
  expect(fittingKey('site.example?id=1')).toBe('site.example?id=1');
  const long = fittingKey(`${'a'.repeat(300)}?id=1`);
  expect(long.length).toBeLessThanOrEqual(191);
  expect(long).not.toBe(fittingKey(`${'a'.repeat(300)}?id=2`));
});
