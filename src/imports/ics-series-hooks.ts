import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';

/**
 * What a feature that keeps series (recurrence.md §6: "import:ics with the module on keeps
 * series") tells the iCalendar importer. With one loaded, a recurring VEVENT is written as one
 * event with a `recurrence` field instead of being expanded, and each overridden instance
 * (RECURRENCE-ID) updates the event that stands for that instance.
 */
export interface IcsSeriesHook {
  /** The event that stands for the instance originally starting at `utcStart` (UTC `YYYY-MM-DD HH:MM:SS`) of the series event `seriesEventId` heads; null when none. */
  instanceOf(seriesEventId: number, utcStart: string): Promise<number | null>;
  /**
   * Every occurrence of the series `seriesEventId` heads (or belongs to): its event and original
   * start (wall time in the series' zone and UTC, `YYYY-MM-DD HH:MM:SS`). The importer remembers
   * each under the key the expanding import gives that instance, so that the same instance is the
   * same event whether the module was on or off when it was imported.
   */
  instancesOf?(seriesEventId: number): Promise<SeriesInstance[]>;
}
export const ICS_SERIES_HOOKS = hookKind<IcsSeriesHook>('iCalendar import series');

/** One occurrence of a series, as the importer keys it. */
export interface SeriesInstance {
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

  instanceOf(seriesEventId: number, utcStart: string): Promise<number | null> {
    return this.hook ? this.hook.instanceOf(seriesEventId, utcStart) : Promise.resolve(null);
  }

  instancesOf(seriesEventId: number): Promise<SeriesInstance[]> {
    return this.hook?.instancesOf ? this.hook.instancesOf(seriesEventId) : Promise.resolve([]);
  }
}

/** Provides IcsSeriesHooks to the importers' context and to the sources' runs. */
@Module({ imports: [DiscoveryModule], providers: [IcsSeriesHooks], exports: [IcsSeriesHooks] })
export class IcsSeriesHooksModule {}
