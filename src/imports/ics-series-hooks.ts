import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';

/**
 * What a feature that keeps series (recurrence.md §6: "import:ics with the module on keeps
 * series") tells the iCalendar importer. With one loaded, a recurring VEVENT is written as one
 * event with a `recurrence` field instead of being expanded, and each overridden occurrence
 * (RECURRENCE-ID) updates the event that stands for that occurrence.
 */
export interface IcsSeriesHook {
  /** The event that stands for the occurrence originally starting at `utcStart` (UTC `YYYY-MM-DD HH:MM:SS`) of the series event `seriesEventId` heads; null when none. */
  occurrenceAt(seriesEventId: number, utcStart: string): Promise<number | null>;
  /**
   * Every occurrence of the series `seriesEventId` heads (or belongs to): its event and original
   * start (wall time in the series' zone and UTC, `YYYY-MM-DD HH:MM:SS`). The importer remembers
   * each under the key the expanding import gives that occurrence, so that the same occurrence is the
   * same event whether the module was on or off when it was imported.
   */
  keyedOccurrences?(seriesEventId: number): Promise<KeyedOccurrence[]>;
}
export const ICS_SERIES_HOOKS = hookKind<IcsSeriesHook>('iCalendar import series');

/** One occurrence of a series, as the importer keys it. */
export interface KeyedOccurrence {
  eventId: number;
  originalStart: string;
  utcOriginalStart: string;
}

/**
 * The series hook the importer asks, as the app provides it (Hooks). One hook answers (a series
 * is kept one way): as for every hook's value (README "Hooks"), the first given wins.
 */
@Injectable()
export class IcsSeriesHooks extends Hooks<IcsSeriesHook> {
  constructor(discovery: DiscoveryService) {
    super(discovery, ICS_SERIES_HOOKS);
  }

  private get hook(): IcsSeriesHook | undefined {
    return this.all()[0];
  }

  /** Does a hook keep series (so that recurring VEVENTs are not expanded)? */
  get keepsSeries(): boolean {
    return this.hook !== undefined;
  }

  occurrenceAt(seriesEventId: number, utcStart: string): Promise<number | null> {
    return this.hook ? this.hook.occurrenceAt(seriesEventId, utcStart) : Promise.resolve(null);
  }

  keyedOccurrences(seriesEventId: number): Promise<KeyedOccurrence[]> {
    return this.hook?.keyedOccurrences ? this.hook.keyedOccurrences(seriesEventId) : Promise.resolve([]);
  }
}

/** Provides IcsSeriesHooks to the importers' context and to the sources' runs. */
@Module({ imports: [DiscoveryModule], providers: [IcsSeriesHooks], exports: [IcsSeriesHooks] })
export class IcsSeriesHooksModule {}
