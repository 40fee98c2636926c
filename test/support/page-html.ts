// Reading rendered pages (pages.md) without a browser: what a reader sees in a cell or a list.

/** The cells of a month grid, by date, as text (tags removed, whitespace collapsed). */
export function gridCells(html: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const m of html.matchAll(/<td class="day[^"]*">([\s\S]*?)<\/td>/g)) {
    const date = /\/events\/(\d{4}-\d{2}-\d{2})\//.exec(m[1])?.[1];
    if (date)
      cells.set(
        date,
        m[1]
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
  }
  return cells;
}

/** The titles of the event cards of a list or day page, in page order. */
export function cardTitles(html: string): string[] {
  return [...html.matchAll(/class="event-card-title"><a [^>]*href="[^"]+"[^>]*>([^<]+)</g)].map((m) => m[1]);
}
