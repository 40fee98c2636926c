/**
 * The public pages' paths (pages.md), as the router knows them. Each answers at the slashed form;
 * the unslashed one redirects there (pages-http.ts). The wildcard routes catch every other path
 * under the pages' prefixes, so that they answer the 404 page instead of the API's JSON.
 */
export const PAGE_PATHS = {
  list: 'events',
  month: 'events/month',
  monthOf: 'events/month/:month',
  today: 'events/today',
  embed: 'events/embed',
  embedMonth: 'events/embed/month',
  embedMonthOf: 'events/embed/month/:month',
  category: 'events/category/*',
  day: 'events/:day',
  event: 'event/:slug',
  venue: 'venue/:slug',
  organizer: 'organizer/:slug',
  tag: 'tag/:slug',
} as const;

/** TEC's paths (compat.md, "TEC's public URLs"): the list view (`page/N` is `?page=N`), an event's `.ics`, the RSS feed. */
export const TEC_PAGE_PATHS = {
  list: 'events/list',
  listPage: 'events/list/page/:page',
  page: 'events/page/:page',
  eventIcal: 'event/:slug/ical',
  feed: 'events/feed',
} as const;

/** Prefixes whose unknown paths answer the 404 page. */
export const PAGE_PREFIXES = ['events', 'event', 'venue', 'organizer', 'tag'] as const;

/** Route patterns (as Fastify names them) whose anonymous answers the response cache keeps. */
export const CACHEABLE_PAGE_ROUTES: readonly string[] = [...Object.values(PAGE_PATHS), ...Object.values(TEC_PAGE_PATHS)].map((p) => `/${p}`);
