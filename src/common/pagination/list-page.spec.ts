import { ApiLinks } from '../http/api-links';
import { ListPage, pageLinks, rawParam, totalPages } from './list-page';

const BASE = 'http://h/calendar/events/v1/tags/';
const OURS = ApiLinks.canonical('http://h');

describe('pageLinks (spec resources.md §8.2)', () => {
  it('writes rest_url from the given parameters, none → no query', () => {
    expect(pageLinks(OURS, '/tags/', {}, 1, { next: false, previous: false })).toEqual({ rest_url: BASE });
    expect(pageLinks(OURS, '/tags/', { hide_empty: 'false' }, 1, { next: false, previous: false }).rest_url).toBe(`${BASE}?hide_empty=false`);
  });

  it('sets page on next and drops it on a previous page 1', () => {
    const links = pageLinks(OURS, '/tags/', { page: '2', per_page: '3' }, 2, { next: true, previous: true });
    expect(links.next_rest_url).toBe(`${BASE}?page=3&per_page=3`);
    expect(links.previous_rest_url).toBe(`${BASE}?per_page=3`);
  });

  it('adds page when the request had none', () => {
    expect(pageLinks(OURS, '/tags/', { per_page: '3' }, 1, { next: true, previous: false }).next_rest_url).toBe(`${BASE}?per_page=3&page=2`);
  });

  it('keeps page on a previous page above 1 and percent-encodes values', () => {
    const links = pageLinks(OURS, '/tags/', { page: '4', search: 'a b&c' }, 4, { next: false, previous: true });
    expect(links.previous_rest_url).toBe(`${BASE}?page=3&search=a+b%26c`);
    expect(links.next_rest_url).toBeUndefined();
  });

  it('writes the WordPress forms the request came by (compat.md)', () => {
    const wp = pageLinks(ApiLinks.wpJson('http://h'), '/tags/', { page: '2', per_page: '3' }, 2, { next: true, previous: true });
    expect(wp).toEqual({
      rest_url: 'http://h/wp-json/tribe/events/v1/tags/?page=2&per_page=3',
      next_rest_url: 'http://h/wp-json/tribe/events/v1/tags/?page=3&per_page=3',
      previous_rest_url: 'http://h/wp-json/tribe/events/v1/tags/?per_page=3',
    });
    const plain = pageLinks(ApiLinks.restRoute('http://h', 'tribe/events/v1'), '/tags/', { per_page: '3' }, 1, { next: true, previous: false });
    expect(plain).toEqual({
      rest_url: 'http://h/?rest_route=/tribe/events/v1/tags/&per_page=3',
      next_rest_url: 'http://h/?rest_route=/tribe/events/v1/tags/&per_page=3&page=2',
    });
    expect(pageLinks(ApiLinks.restRoute('http://h', 'tribe/events/v1'), '/tags/', {}, 1, { next: false, previous: false }).rest_url).toBe(
      'http://h/?rest_route=/tribe/events/v1/tags/',
    );
  });
});

describe('totalPages and rawParam', () => {
  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [10, 10, 1],
    [11, 10, 2],
  ])('%i items by %i → %i pages', (total, per, pages) => expect(totalPages(total, per)).toBe(pages));

  it('writes arrays as comma lists', () => {
    expect(rawParam(['1', '2'])).toBe('1,2');
    expect(rawParam({ 0: '1', 1: '2' })).toBe('1,2');
    expect(rawParam('x')).toBe('x');
    expect(rawParam(undefined)).toBeUndefined();
  });
});

describe('ListPage.linkHeader (beyond.md #10)', () => {
  const page = (next: string, previous: string) => new ListPage({}, 3, 3, { next, previous });

  it('lists next and prev while the header fits, and is left out whole when it would not', () => {
    expect(page(`${BASE}?page=3`, BASE).linkHeader).toBe(`<${BASE}?page=3>; rel="next", <${BASE}>; rel="prev"`);
    const long = `${BASE}?include=${'1%2C'.repeat(1100)}`; // 4.4 KB each: together over 8 KB
    expect(page(`${long}&page=3`, long).linkHeader).toBeUndefined();
  });
});
