import { Controller, Get, Injectable, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import { ListFields } from '../common/http/fields-routes';
import { CurrentActor, PathId, RawQuery } from '../common/http/request-context';
import { ID_SCHEMA, ListDocs, RouteText } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { OUTER } from '../database/tx';
import { EVENT_DOCS, EventListDto, EventReader, ListEventsQueryDto } from '../events';
import { SeriesRepository } from './series.repository';

/** recurrence.md §5: the id is no event the caller may see. */
export const eventInvalidId = () => new WpError('rest_event_invalid_id', 'Invalid event ID.', 404);

/** "default: all": a window no occurrence falls outside of. */
const ALL = { start_date: '1000-01-01 00:00:00', end_date: '9999-12-31 23:59:59' };

const OCCURRENCES: RouteText = {
  summary: 'List the occurrences of a series',
  description:
    "The occurrences of the series the event belongs to (any occurrence's id, or the series' id), in start order, as a list of events " +
    'with the same paging, status and visibility rules as the event list; without start_date/end_date, all of them. ' +
    'An event outside a series lists itself. An id that is no event the caller may see answers 404 `rest_event_invalid_id`. ' +
    'Only with CALENDAR_RECURRENCE=on.',
};

/** The occurrences route (recurrence.md §5): the event list, narrowed to one series. */
@Injectable()
export class OccurrencesService {
  constructor(
    private readonly reader: EventReader,
    private readonly repository: SeriesRepository,
  ) {}

  async list(actor: Actor | null, id: number, q: ListEventsQueryDto, raw: Record<string, unknown>) {
    const seriesId = (await this.repository.occurrenceOf(OUTER, id))?.seriesId ?? (await this.repository.findSeries(OUTER, id))?.id;
    // A series' own id still names it when its first occurrence is gone (§3); any other id must be an event the caller may read.
    if (seriesId !== id || (await this.repository.eventsById(OUTER, [id])).length > 0) await this.assertReadable(actor, id);
    const window = { start_date: q.start_date ?? ALL.start_date, end_date: q.end_date ?? ALL.end_date };
    const narrowed = seriesId === undefined ? { include: [id] } : {};
    const rawNarrowed = seriesId === undefined ? { include: String(id) } : { series: String(seriesId) };
    return this.reader.list(actor, Object.assign(new ListEventsQueryDto(), q, window, narrowed), { ...raw, ...window, ...rawNarrowed });
  }

  private async assertReadable(actor: Actor | null, id: number): Promise<void> {
    try {
      await this.reader.getById(actor, id);
    } catch (e) {
      if (e instanceof WpError && e.status < 500) throw eventInvalidId();
      throw e;
    }
  }
}

@ApiTags('events')
@Controller(`${API_NAMESPACE}/events`)
export class OccurrencesController {
  constructor(private readonly occurrences: OccurrencesService) {}

  @Get(':id/occurrences')
  @ListFields('events')
  @ListDocs(EVENT_DOCS, OCCURRENCES, EventListDto)
  @ApiParam({ name: 'id', schema: ID_SCHEMA, description: "Any occurrence's id, or the series' id" })
  list(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: ListEventsQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.occurrences.list(actor, id, q, raw);
  }
}
