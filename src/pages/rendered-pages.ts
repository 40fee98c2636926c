import { Injectable } from '@nestjs/common';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import { ScheduledPublisher } from '../events';

/** A rendered page: its status and its HTML, as UTF-8 bytes (half the memory of a JS string of mostly ASCII, so the byte-bounded cache holds twice the pages). */
export interface Rendered {
  status: number;
  html: Buffer;
}

/**
 * The public pages' HTML, kept in the read model until the next write and, unless the page reads
 * no clock, for the current minute at most: a page reads the time only through the list's default window (which moves by the
 * minute) and "today" (the day view's and the month grid's highlight). The response cache keeps
 * whole answers by the second only, which would render a page again every second it is asked
 * for; an event page costs a date wording, a sanitising pass and a template, so readers going
 * through many pages would each pay it.
 */
@Injectable()
export class RenderedPages {
  private readonly pages: NamedCache<Rendered>;

  constructor(
    private readonly readModel: ReadModel,
    private readonly publisher: ScheduledPublisher,
  ) {
    this.pages = readModel.cache('pages.rendered');
  }

  /**
   * The page at `url`, from the cache or rendered now (and kept, unless the data moved meanwhile).
   * `timeless`: the page reads no clock (an event's page), so it is kept past the minute.
   */
  async get(url: string, render: () => Promise<Rendered>, timeless = false): Promise<Rendered> {
    // A scheduled event is due: a cached page may not show it published yet, so render afresh.
    if (this.publisher.hasDue()) return render();
    await this.readModel.snapshot();
    return this.pages.through(`${timeless ? 'always' : Math.floor(Date.now() / 60_000)} ${url}`, render);
  }
}
