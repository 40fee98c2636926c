import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { Calendar, type CalendarReply } from '../common/http/negotiation';
import { CurrentActor, Input, PathId, RawQuery } from '../common/http/request-context';
import { CreateDocs, IdParamDoc, ReadDocs, SlugParamDoc, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { EventDto, EventListDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { CreateEventDto, UpdateEventDto } from './dto/write-event.dto';
import { EventCalendarService } from './event-calendar.service';
import { EventWriter } from './event-writer';
import { EventsService } from './events.service';

@ApiTags('events')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/events`)
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly writer: EventWriter,
    private readonly calendars: EventCalendarService,
  ) {}

  @Get()
  @ReadDocs('List events (default window: from yesterday to two years ahead)', EventListDto)
  async list(
    @CurrentActor() actor: Actor | null,
    @Query() q: ListEventsQueryDto,
    @RawQuery() raw: Record<string, unknown>,
    @Calendar('negotiate') calendar: CalendarReply,
  ) {
    return calendar.wanted ? calendar.send(await this.calendars.feed(actor, q, raw)) : this.events.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('Create an event (contributor and above)', CreateEventDto, EventDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateEventDto) {
    return this.writer.create(actor, input);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read an event, with its JSON-LD', EventDto)
  async get(@CurrentActor() actor: Actor | null, @PathId() id: number, @Calendar('negotiate') calendar: CalendarReply) {
    return calendar.wanted ? calendar.send(await this.calendars.byId(actor, id)) : this.events.getById(actor, id);
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (partial: omitted fields stay)', UpdateEventDto, EventDto)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto) {
    return this.writer.updateById(actor, id, input);
  }

  @Put(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (same as POST)', UpdateEventDto, EventDto)
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto) {
    return this.update(actor, id, input);
  }

  @Patch(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (same as POST)', UpdateEventDto, EventDto)
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto) {
    return this.update(actor, id, input);
  }

  @Delete(':id')
  @IdParamDoc()
  @ReadDocs('Move an event to the trash', EventDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.events.removeById(actor, id);
  }

  @Get('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Read an event by slug, with its JSON-LD', EventDto)
  async getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Calendar('negotiate') calendar: CalendarReply) {
    return calendar.wanted ? calendar.send(await this.calendars.bySlug(actor, slug)) : this.events.getBySlug(actor, slug);
  }

  @Post('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (partial)', UpdateEventDto, EventDto)
  updateBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto) {
    return this.writer.updateBySlug(actor, slug, input);
  }

  @Put('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (same as POST)', UpdateEventDto, EventDto)
  putBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto) {
    return this.updateBySlug(actor, slug, input);
  }

  @Patch('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (same as POST)', UpdateEventDto, EventDto)
  patchBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto) {
    return this.updateBySlug(actor, slug, input);
  }

  @Delete('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Move an event to the trash, by slug', EventDto)
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.events.removeBySlug(actor, slug);
  }
}
