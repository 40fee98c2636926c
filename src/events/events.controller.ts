import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { CreateDocs, IdParamDoc, ReadDocs, SlugParamDoc, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { EventDto, EventListDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events.query.dto';
import { CreateEventDto, UpdateEventDto } from './dto/write-event.dto';
import { EventWriter } from './event-writer';
import { EventsService } from './events.service';

@ApiTags('events')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/events`)
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly writer: EventWriter,
  ) {}

  @Get()
  @ReadDocs('List events (default window: from yesterday to two years ahead)', EventListDto)
  list(@CurrentActor() actor: Actor | null, @Query() q: ListEventsQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.events.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('Create an event (contributor and above)', CreateEventDto, EventDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateEventDto) {
    return this.writer.create(actor, input);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read an event, with its JSON-LD', EventDto)
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.events.getById(actor, id);
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (partial: omitted fields stay)', UpdateEventDto, EventDto)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.writer.updateById(actor, id, input, ifMatch);
  }

  @Put(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (same as POST)', UpdateEventDto, EventDto)
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Patch(':id')
  @IdParamDoc()
  @UpdateDocs('Update an event (same as POST)', UpdateEventDto, EventDto)
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Delete(':id')
  @IdParamDoc()
  @ReadDocs('Move an event to the trash; with force=true delete it for good', EventDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.events.removeById(actor, id, q.force === true, ifMatch);
  }

  @Get('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Read an event by slug, with its JSON-LD', EventDto)
  getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.events.getBySlug(actor, slug);
  }

  @Post('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (partial)', UpdateEventDto, EventDto)
  updateBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.writer.updateBySlug(actor, slug, input, ifMatch);
  }

  @Put('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (same as POST)', UpdateEventDto, EventDto)
  putBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.updateBySlug(actor, slug, input, ifMatch);
  }

  @Patch('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an event by slug (same as POST)', UpdateEventDto, EventDto)
  patchBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Input() input: UpdateEventDto, @IfMatch() ifMatch: string | undefined) {
    return this.updateBySlug(actor, slug, input, ifMatch);
  }

  @Delete('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Move an event to the trash, by slug; with force=true delete it for good', EventDto)
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.events.removeBySlug(actor, slug, q.force === true, ifMatch);
  }
}
