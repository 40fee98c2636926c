import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import type { IcalFile } from '../common/http/negotiation';
import { JsonText } from '../common/pagination';
import { AppConfig } from '../config/app-config';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import { IcalEventJson, IcalOptions, eventIcal, eventFileName } from './event-ical';
import { EventPresentation } from './event-presentation';
import { IcalHooks, type IcalShape, type IcalTimes } from './event-ical-hooks';
import { EventReader, type FeedWindow } from './event-reader';
import { EventListRepository } from './event-list.repository';

type Json = Record<string, unknown>;

/**
 * iCalendar export (ical.md, Export): the feed and single events, read through EventReader
 * as the JSON routes read them (the same filters, visibility, errors and presented values),
 * then written by event-ical.ts.
 */
@Injectable()
export class EventIcalService {
  constructor(
    private readonly events: EventReader,
    private readonly config: AppConfig,
    private readonly hooks: IcalHooks,
    private readonly rows: EventListRepository,
    private readonly presentation: EventPresentation,
  ) {}

  /**
   * `events.ics`: the list's events for these parameters (EventReader.icalEvents, which says
   * what `window` changes). `shape` `tec` for the feeds at TEC's public URLs (IcalShape).
   */
  async feed(actor: Actor | null, q: ListEventsQueryDto, raw: Json, window: FeedWindow = 'feed', shape: IcalShape = 'service'): Promise<IcalFile> {
    const events = (await this.events.icalEvents(actor, q, raw, window)) as unknown as IcalEventJson[];
    return { body: await this.icalText(events, false, shape), filename: 'events.ics' };
  }

  async byId(actor: Actor | null, id: number): Promise<IcalFile> {
    return this.single(await this.events.getById(actor, id), 'service');
  }

  async bySlug(actor: Actor | null, slug: string, shape: IcalShape = 'service'): Promise<IcalFile> {
    return this.single(await this.events.getBySlug(actor, slug), shape);
  }

  /** One event, as the single read answered it (from its cache: JSON text). */
  private async single(read: Json | JsonText, shape: IcalShape): Promise<IcalFile> {
    const event = (read instanceof JsonText ? JSON.parse(read.bytes.toString()) : read) as IcalEventJson;
    return { body: await this.icalText([event], true, shape), filename: eventFileName(event) };
  }

  private async icalText(events: IcalEventJson[], single: boolean, shape: IcalShape): Promise<string> {
    const base: IcalOptions = { name: this.config.siteTitle };
    if (shape === 'tec') base.tec = { siteUrl: this.config.publicUrl, timezone: this.config.timezone };
    if (this.hooks.all().length === 0) return eventIcal(events, base);
    return eventIcal(...(await this.planned(events, single, shape, base)));
  }

  /**
   * The answer's events as the iCalendar hooks plan them (IcalHooks.plan): some left out, some
   * added (presented as list items are), other UIDs and times, more properties. Their rows are
   * read once for the answer, and only when some hook is loaded.
   */
  private async planned(events: IcalEventJson[], single: boolean, shape: IcalShape, base: IcalOptions): Promise<[IcalEventJson[], IcalOptions]> {
    const { omit, add, uids, properties, times } = await this.hooks.plan(await this.rows.findByIds(events.map((e) => e.id)), single, shape);
    const known = new Set(events.map((e) => e.id));
    const added = add.filter((row) => !known.has(row.id) && !omit.has(row.id) && known.add(row.id));
    const presented = (await this.presentation.present(added, { jsonLd: false })) as unknown as IcalEventJson[];
    const lastUtc = new Map([...times].flatMap(([id, at]) => (at.lastUtc ? [[id, at.lastUtc] as const] : [])));
    const kept = [...events.filter((e) => !omit.has(e.id)), ...presented].map((e) => retimed(e, times.get(e.id)));
    return [kept, { ...base, uids, properties, lastUtc }];
  }
}

/** The event with the times a hook gave its VEVENT (a copy: list items are shared). */
function retimed(e: IcalEventJson, at: IcalTimes | undefined): IcalEventJson {
  if (!at) return e;
  const modified = at.modifiedUtc !== undefined && at.modifiedUtc > e.modified_utc ? at.modifiedUtc : e.modified_utc;
  return { ...e, start_date: at.start, end_date: at.end, utc_start_date: at.utcStart, utc_end_date: at.utcEnd, modified_utc: modified };
}
