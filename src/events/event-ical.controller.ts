import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { Ical, type IcalReply } from '../common/http/negotiation';
import { CurrentActor, PathId, RawQuery } from '../common/http/request-context';
import { EventIcalDocs } from './event-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { EventIcalService } from './event-ical.service';

const FEED = {
  summary: 'Subscribe to events (iCalendar)',
  description:
    'The events the same list query would list, as an iCalendar feed for calendar apps: every list filter applies, there is no paging, ' +
    'and without dates the feed runs from 30 days ago to a year ahead, at most CALENDAR_ICS_MAX_EVENTS events (the nearest to now). ' +
    'The same answer comes from `GET /events` with `Accept: text/calendar`; `webcal://` works with the same address.',
};
const ONE = {
  summary: 'Read an event as iCalendar',
  description:
    'One event as an iCalendar document, with the same visibility rules and errors as its JSON read. Also `GET /events/{id}` with `Accept: text/calendar`.',
};

/**
 * The `.ics` routes (ical.md, Export). The same answers come from `GET /events`,
 * `/events/{id}` and `/events/by-slug/{slug}` with `Accept: text/calendar` (EventsController).
 * `events/:id.ics` sits beside `events/:id` in Fastify's router: a path ending in `.ics` takes
 * this route, and a non-numeric id is no route here either (PathId).
 */
@ApiTags('events')
@Controller(API_NAMESPACE)
export class EventIcalController {
  constructor(private readonly ical: EventIcalService) {}

  @Get('events.ics')
  @EventIcalDocs(FEED)
  async feed(
    @CurrentActor() actor: Actor | null,
    @Query() q: ListEventsQueryDto,
    @RawQuery() raw: Record<string, unknown>,
    @Ical('always') icalReply: IcalReply,
  ) {
    return icalReply.send(await this.ical.feed(actor, q, raw));
  }

  @Get('events/:id.ics')
  @EventIcalDocs(ONE, 'id')
  async event(@CurrentActor() actor: Actor | null, @PathId() id: number, @Ical('always') icalReply: IcalReply) {
    return icalReply.send(await this.ical.byId(actor, id));
  }
}
