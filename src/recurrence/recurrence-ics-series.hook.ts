import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import { OUTER } from '../database/tx';
import { ICS_SERIES_HOOKS, type IcsSeriesHook, type KeyedOccurrence } from '../imports';
import { SeriesRepository } from './series.repository';

/**
 * `import:ics` keeps series while the extension is on (recurrence.md §6): an overridden instance
 * updates its occurrence, and each occurrence is keyed as the expanding import keys its
 * instance, so that switching the extension keeps identities.
 */
@Hook(ICS_SERIES_HOOKS)
@Injectable()
export class RecurrenceIcsSeriesHook implements IcsSeriesHook {
  constructor(private readonly repository: SeriesRepository) {}

  occurrenceAt(seriesEventId: number, utcStart: string): Promise<number | null> {
    return this.repository.occurrenceAt(seriesEventId, utcStart);
  }

  async keyedOccurrences(seriesEventId: number): Promise<KeyedOccurrence[]> {
    const seriesId = (await this.repository.occurrenceOf(OUTER, seriesEventId))?.seriesId ?? seriesEventId;
    return (await this.repository.occurrencesOf(OUTER, seriesId)).map(({ eventId, originalStart, utcOriginalStart }) => ({
      eventId,
      originalStart,
      utcOriginalStart,
    }));
  }
}
