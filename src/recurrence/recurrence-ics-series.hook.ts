import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import { OUTER } from '../database/tx';
import { ICS_SERIES_HOOKS, type IcsSeriesHook, type SeriesInstance } from '../imports';
import { SeriesStore } from './series.store';

/**
 * `import:ics` keeps series while the extension is on (recurrence.md §6): an overridden instance
 * updates its occurrence, and each occurrence is keyed as the expanding import keys its
 * instance, so that switching the extension keeps identities.
 */
@Hook(ICS_SERIES_HOOKS)
@Injectable()
export class RecurrenceIcsSeriesHook implements IcsSeriesHook {
  constructor(private readonly store: SeriesStore) {}

  instanceOf(seriesEventId: number, utcStart: string): Promise<number | null> {
    return this.store.instanceOf(seriesEventId, utcStart);
  }

  async instancesOf(seriesEventId: number): Promise<SeriesInstance[]> {
    const seriesId = (await this.store.occurrenceOf(OUTER, seriesEventId))?.seriesId ?? seriesEventId;
    return (await this.store.occurrencesOf(OUTER, seriesId)).map(({ eventId, originalStart, utcOriginalStart }) => ({
      eventId,
      originalStart,
      utcOriginalStart,
    }));
  }
}
