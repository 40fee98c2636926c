import { Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { HorizonExtender } from './horizon-extender';
import { OccurrencesController, OccurrencesService } from './occurrences.controller';
import { RecurrenceApiDoc } from './recurrence-api-doc';
import { RecurrenceEventHook } from './recurrence-event.hook';
import { RecurrenceIcalHook } from './recurrence-ical.hook';
import { RecurrenceIcsSeriesHook } from './recurrence-ics-series.hook';
import { RecurrenceListHook } from './recurrence-list.hook';
import { RecurrencePageHook } from './recurrence-page.hook';
import { RecurrenceFormHook } from './rule-form-section';
import { SeriesOccurrences } from './series-occurrences';
import { SeriesRemake } from './series-remake';
import { SeriesWriter } from './series-writer';
import { SeriesRepository } from './series.repository';

/**
 * The recurrence extension (recurrence.md), loaded only with CALENDAR_RECURRENCE=on. Its hooks
 * plug into the features that own them: the events' write and representation (`recurrence`
 * and `scope` write fields, series kept in the write's unit of work, `recurrence`/`series` in
 * representations), the list of events (`series`, `hide_subsequent_recurrences`), iCalendar
 * answers, the public event page, the editing form's "Repeats", /doc and `import:ics` (which
 * keeps series). A hook of a feature switched off (pages, manage) is not asked. It has a route
 * of its own and a timer that extends series.
 */
@Module({
  imports: [EventsModule],
  controllers: [OccurrencesController],
  providers: [
    SeriesRepository,
    SeriesOccurrences,
    SeriesRemake,
    SeriesWriter,
    RecurrenceEventHook,
    RecurrenceListHook,
    RecurrenceIcalHook,
    RecurrencePageHook,
    RecurrenceFormHook,
    RecurrenceApiDoc,
    RecurrenceIcsSeriesHook,
    OccurrencesService,
    HorizonExtender,
  ],
})
export class RecurrenceModule {}
