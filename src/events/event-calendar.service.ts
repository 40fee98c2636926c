import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import type { CalendarFile } from '../common/http/negotiation';
import { JsonText } from '../common/pagination';
import { AppConfig } from '../config/app-config';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import { CalendarEventJson, eventCalendar, eventFileName } from './event-calendar';
import { EventReader } from './event-reader';

type Json = Record<string, unknown>;

/**
 * iCalendar export (ical.md, Export): the feed and single events, read through EventReader
 * as the JSON routes read them (the same filters, visibility, errors and presented values),
 * then written by event-calendar.ts.
 */
@Injectable()
export class EventCalendarService {
  constructor(
    private readonly events: EventReader,
    private readonly config: AppConfig,
  ) {}

  /** `events.ics`: the list's events for these parameters (EventReader.calendarEvents). */
  async feed(actor: Actor | null, q: ListEventsQueryDto, raw: Json): Promise<CalendarFile> {
    const events = (await this.events.calendarEvents(actor, q, raw)) as unknown as CalendarEventJson[];
    return { body: this.calendar(events), filename: 'events.ics' };
  }

  async byId(actor: Actor | null, id: number): Promise<CalendarFile> {
    return this.single(await this.events.getById(actor, id));
  }

  async bySlug(actor: Actor | null, slug: string): Promise<CalendarFile> {
    return this.single(await this.events.getBySlug(actor, slug));
  }

  /** One event, as the single read answered it (from its cache: JSON text). */
  private single(read: Json | JsonText): CalendarFile {
    const event = (read instanceof JsonText ? JSON.parse(read.bytes.toString()) : read) as CalendarEventJson;
    return { body: this.calendar([event]), filename: eventFileName(event) };
  }

  private calendar(events: CalendarEventJson[]): string {
    return eventCalendar(events, { name: this.config.siteTitle });
  }
}
