import { readTecQuery } from './tec-queries';

// TEC's query forms on the site's root (compat.md, "TEC's public URLs"): which URLs they are,
// where each goes, and that every other URL is left to its own route.

describe('readTecQuery', () => {
  it.each([
    ['/?tribe_events=summer-fair', '/event/summer-fair/'],
    ['/?post_type=tribe_events&tribe_events=summer-fair', '/event/summer-fair/'],
    ['/?tribe_events=summer-fair&ical=1', '/event/summer-fair/?ical=1'],
    ['/?tribe_events=f%C3%AAte+d%27%C3%A9t%C3%A9', `/event/${encodeURIComponent("fête d'été")}/`],
    ['/index.php?tribe_events=summer-fair', '/event/summer-fair/'],
    ['/?post_type=tribe_events', '/events/'],
    ['/?post_type=tribe_events&eventDisplay=list&search=jazz', '/events/?eventDisplay=list&search=jazz'],
    ['/?post_type=tribe_events&ical=0', '/events/?ical=0'],
    ['/?post_type=tribe%5Fevents', '/events/'],
  ])('%s goes to %s', (url, redirect) => {
    expect(readTecQuery(url)).toEqual({ redirect });
  });

  it.each(['/?post_type=tribe_events&ical=1&eventDisplay=list', '/?ical=1&post_type=tribe_events', '/index.php?post_type=tribe_events&ical=1'])(
    "%s is TEC's subscribe link: the feed of upcoming events",
    (url) => {
      expect(readTecQuery(url)).toEqual({ feed: true });
    },
  );

  it.each([
    '/',
    '/?',
    '/?post_type=post',
    '/?post_type=tribe_venue',
    '/?tribe_events=',
    '/?ical=1',
    '/?rest_route=/tribe/events/v1/events',
    '/?tribe_events=%zz',
    '/?post_type',
    '/events/?post_type=tribe_events',
    '/wp-json?post_type=tribe_events',
    '/?x_post_type=tribe_events',
  ])('%s is none of them', (url) => {
    expect(readTecQuery(url)).toBeUndefined();
  });
});
