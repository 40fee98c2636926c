import { Module, OnModuleInit } from '@nestjs/common';
import { OUTER } from '../database/tx';
import { EventExtensions, EventListExtensions, EventsModule } from '../events';
import { ApiDocExtensions, IndexModule } from '../index';
import { IcsSeriesHooks, IcsSeriesHooksModule } from '../common/ical/ics-series-hooks';
import { HorizonExtender } from './horizon-extender';
import { OccurrencesController, OccurrencesService } from './occurrences.controller';
import { documentRecurrence } from './recurrence-api-doc';
import { RecurrenceEventExtension } from './recurrence-event.extension';
import { RecurrenceListExtension } from './recurrence-list.extension';
import { SeriesOccurrences } from './series-occurrences';
import { SeriesRemake } from './series-remake';
import { SeriesWriter } from './series-writer';
import { SeriesStore } from './series.store';

/**
 * The recurrence extension (recurrence.md), loaded only with CALENDAR_RECURRENCE=on. It plugs
 * into the events feature's public extension points: EventExtensions (the `recurrence` and
 * `scope` write fields, series kept in the write's unit of work, `recurrence`/`series` in
 * representations, the page's words, iCalendar) and EventListExtensions (`series`,
 * `hide_subsequent_recurrences`), ApiDocExtensions (what /doc says of them) and IcsSeriesHooks
 * (import:ics keeps series); it has a route of its own and a timer that extends series.
 */
@Module({
  imports: [EventsModule, IndexModule, IcsSeriesHooksModule],
  controllers: [OccurrencesController],
  providers: [
    SeriesStore,
    SeriesOccurrences,
    SeriesRemake,
    SeriesWriter,
    RecurrenceEventExtension,
    RecurrenceListExtension,
    OccurrencesService,
    HorizonExtender,
  ],
})
export class RecurrenceModule implements OnModuleInit {
  constructor(
    private readonly eventExtensions: EventExtensions,
    private readonly listExtensions: EventListExtensions,
    private readonly events: RecurrenceEventExtension,
    private readonly lists: RecurrenceListExtension,
    private readonly icsHooks: IcsSeriesHooks,
    private readonly store: SeriesStore,
    docs: ApiDocExtensions,
  ) {
    // Now, not in onModuleInit: the document is built when the app is set up, before its init.
    docs.register(documentRecurrence);
  }

  onModuleInit(): void {
    this.eventExtensions.register(this.events);
    this.listExtensions.register(this.lists);
    // import:ics keeps series (recurrence.md §6): an overridden instance updates its occurrence.
    // Each occurrence is keyed as the expanding import keys its instance, so switching the module keeps identities.
    this.icsHooks.register({
      instanceOf: (seriesEventId, utcStart) => this.store.instanceOf(seriesEventId, utcStart),
      instancesOf: async (seriesEventId) => {
        const seriesId = (await this.store.occurrenceOf(OUTER, seriesEventId))?.seriesId ?? seriesEventId;
        return (await this.store.occurrencesOf(OUTER, seriesId)).map(({ eventId, originalStart, utcOriginalStart }) => ({
          eventId,
          originalStart,
          utcOriginalStart,
        }));
      },
    });
  }
}
