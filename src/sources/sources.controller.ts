import { Controller, Delete, Get, Patch, Post, Put } from '@nestjs/common';
import { ApiBodyOptions, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, PathId, RawInput } from '../common/http/request-context';
import { ItemFields, ListFields } from '../common/http/fields-routes';
import { AdminDocs, code } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { SourcesService } from './sources.service';

type Body = Record<string, unknown>;

const SOURCE_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['tec', 'ics'], description: 'Required on create; not writable after.' },
      url: { type: 'string', description: 'The TEC site or the iCalendar feed (http/https).' },
      interval_minutes: { type: 'integer', description: '0: only by hand; else at least 15 (default 60).' },
      enabled: { type: 'boolean' },
      status: { type: 'string', enum: ['publish', 'draft', 'pending'] },
      categories: { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] } },
      author: { type: 'string', description: 'Login of the author of what it creates.' },
      login: { type: 'string', description: 'tec only; write only.' },
      password: { type: 'string', description: 'tec only; write only; stored encrypted with CALENDAR_WEBHOOK_KEY when set.' },
      window_days: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: 'ics only: [from, to] days from the run.' },
      keep_local_edits: { type: 'boolean' },
      on_source_delete: { type: 'string', enum: ['trash', 'keep'] },
    },
  },
};
const UPDATE = { summary: 'Change a source', description: 'Changes the fields given; POST, PUT and PATCH do the same.' };
const ONE = { byId: true, errors: { 404: [code('rest_source_invalid_id', 'no source has this id')] } };
const WRITE = { ...ONE, body: SOURCE_BODY };
const SOURCE = { status: 200 as const, description: 'The source (sources.md §2)' };

/** sources.md §1: calendars kept in step from other sites, administrators only. */
@ApiTags('sources')
@Controller(`${API_NAMESPACE}/sources`)
export class SourcesController {
  constructor(private readonly sources: SourcesService) {}

  @Get()
  @ListFields('sources')
  @AdminDocs('sources', { summary: 'List sources', description: 'Every source, oldest first.' }, { status: 200, description: '`{"sources": [...]}`' })
  list(@CurrentActor() actor: Actor | null) {
    return this.sources.list(actor);
  }

  @Post()
  @AdminDocs(
    'sources',
    { summary: 'Add a source', description: 'A TEC site or an iCalendar feed; it runs at once, then every `interval_minutes`.' },
    { status: 201, description: 'The new source (sources.md §2)' },
    { body: SOURCE_BODY },
  )
  create(@CurrentActor() actor: Actor | null, @RawInput() body: Body) {
    return this.sources.create(actor, body);
  }

  @Get(':id')
  @ItemFields('the source')
  @AdminDocs('sources', { summary: 'Read a source', description: 'Without its credentials.' }, SOURCE, ONE)
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.get(actor, id);
  }

  @Post(':id')
  @AdminDocs('sources', UPDATE, SOURCE, WRITE)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Put(':id')
  @AdminDocs('sources', { ...UPDATE, summary: `${UPDATE.summary} (PUT)` }, SOURCE, WRITE)
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Patch(':id')
  @AdminDocs('sources', { ...UPDATE, summary: `${UPDATE.summary} (PATCH)` }, SOURCE, WRITE)
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Delete(':id')
  @AdminDocs(
    'sources',
    { summary: 'Delete a source', description: 'Its runs go with it; the events it wrote stay.' },
    { status: 200, description: '`{"deleted": true, "previous": …}`' },
    ONE,
  )
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.remove(actor, id);
  }

  @Post(':id/run')
  @AdminDocs(
    'sources',
    { summary: 'Run a source now', description: 'Queues a run; a worker of some instance takes it at once.' },
    { status: 202, description: 'The run, `queued` or `running` (sources.md §3)' },
    { ...ONE, errors: { ...ONE.errors, 409: [code('rest_source_busy', 'a run of this source is queued or going')] } },
  )
  run(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.runNow(actor, id);
  }

  @Get(':id/runs')
  @ListFields('runs')
  @AdminDocs('sources', { summary: "A source's runs", description: 'The last 50, newest first.' }, { status: 200, description: '`{"runs": [...]}`' }, ONE)
  runs(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.listRuns(actor, id);
  }
}
