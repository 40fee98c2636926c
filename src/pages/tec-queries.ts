/** What one of TEC's query forms on the site's root asks for: a page to go to (path and query), or the feed of upcoming events. */
export type TecQuery = { redirect: string } | { feed: true };

/**
 * TEC's query-string forms on the site's root (compat.md, "TEC's public URLs"), WordPress's plain
 * permalinks of the calendar, from a request's URL:
 * - `/?tribe_events={slug}`: the event's page, `/event/{slug}/`;
 * - `/?post_type=tribe_events&ical=1` (TEC's "subscribe" link, with `eventDisplay=list`): the feed of upcoming events;
 * - `/?post_type=tribe_events`: the list view, `/events/`.
 * A redirect keeps the other parameters as they were written (as WordPress's canonical redirect
 * does), so that `/?tribe_events={slug}&ical=1` reaches the event's own `.ics`. Any other URL,
 * `/` with other parameters included, is none of these (undefined): it keeps its own answer.
 * `/index.php` is the root too, as for `?rest_route=`.
 */
export function readTecQuery(url: string): TecQuery | undefined {
  const cut = url.indexOf('?');
  if (cut === -1) return undefined;
  const path = url.slice(0, cut);
  if (path !== '/' && path !== '/index.php') return undefined;
  const pairs = url
    .slice(cut + 1)
    .split('&')
    .filter((p) => p !== '')
    .map((raw) => {
      const eq = raw.indexOf('=');
      return { raw, name: decoded(eq === -1 ? raw : raw.slice(0, eq)), value: eq === -1 ? '' : decoded(raw.slice(eq + 1)) };
    });
  const value = (name: string) => pairs.find((p) => p.name === name)?.value;
  const others = (...names: string[]) => {
    const kept = pairs.filter((p) => !names.includes(p.name ?? '')).map((p) => p.raw);
    return kept.length === 0 ? '' : `?${kept.join('&')}`;
  };
  const slug = value('tribe_events');
  if (slug) return { redirect: `/event/${encodeURIComponent(slug)}/${others('tribe_events', 'post_type')}` };
  if (value('post_type') !== 'tribe_events') return undefined;
  // `ical=1` as on the pages (pages.controller.ts); `eventDisplay` and `tribe_display` change nothing here.
  if (value('ical') === '1') return { feed: true };
  return { redirect: `/events/${others('post_type')}` };
}

/** A query-string component decoded as a form writes it, or undefined when it cannot be (`%zz`): such a pair names nothing. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
