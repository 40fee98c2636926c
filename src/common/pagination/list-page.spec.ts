import { pageLinks, rawParam, totalPages } from './list-page';

const BASE = 'http://h/calendar/events/v1/tags/';

describe('pageLinks (spec resources.md §8.2)', () => {
  it('writes rest_url from the given parameters, none → no query', () => {
    expect(pageLinks(BASE, {}, 1, { next: false, previous: false })).toEqual({ rest_url: BASE });
    expect(pageLinks(BASE, { hide_empty: 'false' }, 1, { next: false, previous: false }).rest_url).toBe(`${BASE}?hide_empty=false`);
  });

  it('sets page on next and drops it on a previous page 1', () => {
    const links = pageLinks(BASE, { page: '2', per_page: '3' }, 2, { next: true, previous: true });
    expect(links.next_rest_url).toBe(`${BASE}?page=3&per_page=3`);
    expect(links.previous_rest_url).toBe(`${BASE}?per_page=3`);
  });

  it('adds page when the request had none', () => {
    expect(pageLinks(BASE, { per_page: '3' }, 1, { next: true, previous: false }).next_rest_url).toBe(`${BASE}?per_page=3&page=2`);
  });

  it('keeps page on a previous page above 1 and percent-encodes values', () => {
    const links = pageLinks(BASE, { page: '4', search: 'a b&c' }, 4, { next: false, previous: true });
    expect(links.previous_rest_url).toBe(`${BASE}?page=3&search=a+b%26c`);
    expect(links.next_rest_url).toBeUndefined();
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
