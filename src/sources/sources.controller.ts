import { Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiBody, ApiBodyOptions, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, PathId, RawInput } from '../common/http/request-context';
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
const ANSWER = { description: 'The source (sources.md §2)' };
const UPDATE = { summary: 'Change a source', description: 'Changes the fields given. POST, PUT and PATCH do the same. Administrators only.' };

/** sources.md §1: calendars kept in step from other sites, administrators only. */
@ApiTags('sources')
@Controller(`${API_NAMESPACE}/sources`)
export class SourcesController {
  constructor(private readonly sources: SourcesService) {}

  @Get()
  @ApiOperation({ summary: 'List sources', description: 'Every source, oldest first. Administrators only.' })
  @ApiResponse({ status: 200, description: '`{"sources": [...]}`' })
  list(@CurrentActor() actor: Actor | null) {
    return this.sources.list(actor);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a source',
    description: 'A TEC site or an iCalendar feed; it runs at once, then every `interval_minutes`. Administrators only.',
  })
  @ApiBody(SOURCE_BODY)
  @ApiResponse({ status: 201, ...ANSWER })
  create(@CurrentActor() actor: Actor | null, @RawInput() body: Body) {
    return this.sources.create(actor, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a source', description: 'Without its credentials. Administrators only.' })
  @ApiResponse({ status: 200, ...ANSWER })
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.get(actor, id);
  }

  @Post(':id')
  @ApiOperation(UPDATE)
  @ApiBody(SOURCE_BODY)
  @ApiResponse({ status: 200, ...ANSWER })
  @HttpCode(200)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Put(':id')
  @ApiOperation({ ...UPDATE, summary: `${UPDATE.summary} (PUT)` })
  @ApiBody(SOURCE_BODY)
  @ApiResponse({ status: 200, ...ANSWER })
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Patch(':id')
  @ApiOperation({ ...UPDATE, summary: `${UPDATE.summary} (PATCH)` })
  @ApiBody(SOURCE_BODY)
  @ApiResponse({ status: 200, ...ANSWER })
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @RawInput() body: Body) {
    return this.sources.update(actor, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a source', description: 'Its runs go with it; the events it wrote stay. Administrators only.' })
  @ApiResponse({ status: 200, description: '`{"deleted": true, "previous": …}`' })
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.remove(actor, id);
  }

  @Post(':id/run')
  @HttpCode(202)
  @ApiOperation({ summary: 'Run a source now', description: '`409 rest_source_busy` while a run of it is queued or going. Administrators only.' })
  @ApiResponse({ status: 202, description: 'The run, `queued` or `running` (sources.md §3)' })
  @ApiResponse({ status: 409, description: '`rest_source_busy`' })
  run(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.runNow(actor, id);
  }

  @Get(':id/runs')
  @ApiOperation({ summary: "A source's runs", description: 'The last 50, newest first. Administrators only.' })
  @ApiResponse({ status: 200, description: '`{"runs": [...]}`' })
  runs(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.sources.listRuns(actor, id);
  }
}
