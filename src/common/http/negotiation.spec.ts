import { prefersIcal } from './negotiation';

describe('prefersIcal', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['text/calendar', true],
    ['TEXT/Calendar; charset=utf-8', true],
    ['text/calendar, */*', true],
    ['text/calendar, */*;q=0.8', true],
    ['text/calendar;q=0.5, */*', false],
    ['text/calendar, application/json', false],
    ['application/json;q=0.9, text/calendar', true],
    ['application/json, text/calendar;q=0.9', false],
    ['text/*', true],
    ['text/*, application/*', false],
    ['text/calendar;q=0', false],
    ['text/html, application/xhtml+xml, */*;q=0.8', false],
    ['text/calendar;q=bad', false],
  ])('Accept: %s → %s', (accept, expected) => expect(prefersIcal(accept)).toBe(expected));
});
