import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { ItemFields, ListFields } from '../common/http/fields-routes';
import { Ical, type IcalReply } from '../common/http/negotiation';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { bySlug, CreateDocs, DeleteDocs, ListDocs, ReadDocs, RouteText, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { EventDto, EventListDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { CreateEventDto, UpdateEventDto } from './dto/write-event.dto';
import { EventIcalService } from './event-ical.service';
import { EventWriter } from './event-writer';
import { EventDeleter } from './event-deleter';
import { EVENT_DOCS } from './event-docs';
import { EventReader } from './event-reader';

type Json = Record<string, unknown>;

const LIST: RouteText = {
  summary: 'List events',
  description:
    'Events in order of their start, with paging. Without date parameters the list runs from the start of yesterday to two years ahead. ' +
    'Anonymous callers see published events only; logged-in users also see the other events they may read. ' +
    'Filters combine: an event must match all of them. A page past the last answers 404.',
};
const CREATE: RouteText = {
  summary: 'Create an event',
  description:
    '`title`, `start_date` and `end_date` are required. Venue and organizers can be given by id or created in the same request ' +
    'from their data; categories and tags by id or by name (a new name creates the term). ' +
    'Contributors may create events, but what they publish is kept `pending` for review.',
};
const READ: RouteText = {
  summary: 'Read an event',
  description:
    'One event, with its venue, organizers, categories, tags and JSON-LD. An event that is not published can be read only by its author, ' +
    'editors and administrators; an event in the trash answers 403.',
};
const UPDATE: RouteText = {
  summary: 'Update an event',
  description:
    'Changes only the fields you send; the others keep their values. Sending `status` on an event in the trash takes it out of the trash. ' +
    'Authors and contributors may only edit their own events, and contributors only until they are published.',
};
const DELETE: RouteText = {
  summary: 'Delete an event',
  description: 'Moves the event to the trash (its slug gets the suffix `__trashed`), or with `force=true` deletes it for good.',
};

@ApiTags('events')
@Controller(`${API_NAMESPACE}/events`)
export class EventsController {
  constructor(
    private readonly events: EventReader,
    private readonly deleter: EventDeleter,
    private readonly writer: EventWriter,
    private readonly ical: EventIcalService,
  ) {}

  @Get()
  @ListFields('events')
  @ListDocs(EVENT_DOCS, LIST, EventListDto)
  async list(
    @CurrentActor() actor: Actor | null,
    @Query() q: ListEventsQueryDto,
    @RawQuery() raw: Record<string, unknown>,
    @Ical('negotiate') icalReply: IcalReply,
  ) {
    return icalReply.wanted ? icalReply.send(await this.ical.feed(actor, q, raw)) : this.events.list(actor, q, raw);
  }

  @Post()
  @CreateDocs(EVENT_DOCS, CREATE, CreateEventDto, EventDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateEventDto, @RawInput() raw: Json) {
    return this.writer.create(actor, input, raw);
  }

  @Get(':id')
  @ItemFields()
  @ReadDocs(EVENT_DOCS, READ, EventDto, 'id')
  async get(@CurrentActor() actor: Actor | null, @PathId() id: number, @Ical('negotiate') icalReply: IcalReply) {
    return icalReply.wanted ? icalReply.send(await this.ical.byId(actor, id)) : this.events.getById(actor, id);
  }

  @Post(':id')
  @UpdateDocs(EVENT_DOCS, UPDATE, UpdateEventDto, EventDto, 'id')
  update(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.writer.updateById(actor, id, input, ifMatch, raw);
  }

  @Put(':id')
  @UpdateDocs(EVENT_DOCS, sameAsPost(UPDATE, 'PUT'), UpdateEventDto, EventDto, 'id')
  put(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.update(actor, id, input, ifMatch, raw);
  }

  @Patch(':id')
  @UpdateDocs(EVENT_DOCS, sameAsPost(UPDATE, 'PATCH'), UpdateEventDto, EventDto, 'id')
  patch(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.update(actor, id, input, ifMatch, raw);
  }

  @Delete(':id')
  @DeleteDocs(EVENT_DOCS, DELETE, EventDto, 'id')
  remove(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Query() q: DeleteItemQueryDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.deleter.removeById(actor, id, q.force === true, ifMatch, raw);
  }

  @Get('by-slug/:slug')
  @ItemFields()
  @ReadDocs(EVENT_DOCS, bySlug(READ), EventDto, 'slug')
  async getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Ical('negotiate') icalReply: IcalReply) {
    return icalReply.wanted ? icalReply.send(await this.ical.bySlug(actor, slug)) : this.events.getBySlug(actor, slug);
  }

  @Post('by-slug/:slug')
  @UpdateDocs(EVENT_DOCS, bySlug(UPDATE), UpdateEventDto, EventDto, 'slug')
  updateBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.writer.updateBySlug(actor, slug, input, ifMatch, raw);
  }

  @Put('by-slug/:slug')
  @UpdateDocs(EVENT_DOCS, sameAsPost(bySlug(UPDATE), 'PUT'), UpdateEventDto, EventDto, 'slug')
  putBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.updateBySlug(actor, slug, input, ifMatch, raw);
  }

  @Patch('by-slug/:slug')
  @UpdateDocs(EVENT_DOCS, sameAsPost(bySlug(UPDATE), 'PATCH'), UpdateEventDto, EventDto, 'slug')
  patchBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateEventDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.updateBySlug(actor, slug, input, ifMatch, raw);
  }

  @Delete('by-slug/:slug')
  @DeleteDocs(EVENT_DOCS, bySlug(DELETE), EventDto, 'slug')
  removeBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Query() q: DeleteItemQueryDto,
    @IfMatch() ifMatch: string | undefined,
    @RawInput() raw: Json,
  ) {
    return this.deleter.removeBySlug(actor, slug, q.force === true, ifMatch, raw);
  }
}
