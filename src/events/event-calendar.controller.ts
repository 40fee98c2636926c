import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { Calendar, type CalendarReply } from '../common/http/negotiation';
import { CurrentActor, PathId, RawQuery } from '../common/http/request-context';
import { IdParamDoc } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { EventCalendarService } from './event-calendar.service';

const ICS_ANSWER = { description: 'An iCalendar document (RFC 5545)', content: { 'text/calendar': { schema: { type: 'string' } } } } as const;

/**
 * The `.ics` routes (ical.md, Export). The same answers come from `GET /events`,
 * `/events/{id}` and `/events/by-slug/{slug}` with `Accept: text/calendar` (EventsController).
 * `events/:id.ics` sits beside `events/:id` in Fastify's router: a path ending in `.ics` takes
 * this route, and a non-numeric id is no route here either (PathId).
 */
@ApiTags('events')
@ApiBasicAuth('basicAuth')
@Controller(API_NAMESPACE)
export class EventCalendarController {
  constructor(private readonly calendars: EventCalendarService) {}

  @Get('events.ics')
  @ApiOperation({ summary: 'The events of a list query as an iCalendar feed: no paging, 30 days back to a year ahead by default' })
  @ApiProduces('text/calendar')
  @ApiOkResponse(ICS_ANSWER)
  async feed(
    @CurrentActor() actor: Actor | null,
    @Query() q: ListEventsQueryDto,
    @RawQuery() raw: Record<string, unknown>,
    @Calendar('always') calendar: CalendarReply,
  ) {
    return calendar.send(await this.calendars.feed(actor, q, raw));
  }

  @Get('events/:id.ics')
  @IdParamDoc()
  @ApiOperation({ summary: 'One event as an iCalendar document' })
  @ApiProduces('text/calendar')
  @ApiOkResponse(ICS_ANSWER)
  async event(@CurrentActor() actor: Actor | null, @PathId() id: number, @Calendar('always') calendar: CalendarReply) {
    return calendar.send(await this.calendars.byId(actor, id));
  }
}
