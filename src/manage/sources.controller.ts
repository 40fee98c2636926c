import { Body, Controller, Get, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WpError } from '../common/errors';
import { ON_SOURCE_DELETE, SOURCE_KINDS, SOURCE_STATUSES, SourcesService } from '../sources';
import { TermsService } from '../taxonomies';
import { type FieldError, formErrors } from './form-errors';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageRefusal } from './manage-refusals';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageRoute } from './sign-in.controller';
import { administrator } from './users.controller';

type Form = Record<string, unknown> | undefined;
type Source = Record<string, unknown> & { id: number; kind: string };

/** What the source form shows: every field as the form's text. */
interface SourceValues {
  kind: string;
  url: string;
  interval_minutes: string;
  enabled: boolean;
  status: string;
  categories: string;
  author: string;
  login: string;
  forget_credentials: boolean;
  window_from: string;
  window_to: string;
  keep_local_edits: boolean;
  on_source_delete: string;
}

/** The API's parameter → the form's input id (for the messages beside the fields). */
const FIELD_OF: Record<string, string> = {
  kind: 'kind',
  url: 'url',
  interval_minutes: 'interval_minutes',
  enabled: 'enabled',
  status: 'status',
  categories: 'categories',
  author: 'author',
  login: 'login',
  password: 'password',
  window_days: 'window_from',
  keep_local_edits: 'keep_local_edits',
  on_source_delete: 'on_source_delete',
};

/**
 * The sources page (editing.md §2, sources.md; administrators only): the sources with their
 * last runs, adding and editing one, "Run now", and a source's runs with their counts and
 * errors. Every read and write goes through SourcesService, as the API's routes do, with the
 * signed-in administrator as the actor.
 */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/sources')
export class ManageSourcesController {
  constructor(
    private readonly sources: SourcesService,
    private readonly terms: TermsService,
    private readonly views: ManageViews,
  ) {}

  @Get()
  @ManageRoute()
  async list(@Editor() editor: EditorSession, @Query('done') done: unknown, @Res() reply: FastifyReply) {
    administrator(editor);
    const { sources } = await this.sources.list(editor.actor);
    return this.views.send(reply, {
      template: 'sources',
      title: 'Sources',
      current: 'sources',
      editor,
      data: { sources, notice: done === 'deleted' ? 'The source was deleted; the events it wrote stay.' : undefined },
    });
  }

  @Get('new')
  @ManageRoute()
  newForm(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
    administrator(editor);
    return this.showForm(reply, editor, null, blank(editor.actor.login), []);
  }

  @Post('new')
  @ManageRoute()
  async create(@Editor() editor: EditorSession, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const values = readForm(body, null);
    let created: Source;
    try {
      created = (await this.sources.create(editor.actor, toWrite(values, text(body?.password), null))) as Source;
    } catch (err) {
      if (!(err instanceof WpError) || err.status !== 400) throw err;
      return this.showForm(
        reply,
        editor,
        null,
        values,
        formErrors(err, (p) => FIELD_OF[p], 'url'),
        400,
      );
    }
    return reply.redirect(`${this.views.path('sources', created.id)}?done=created`, 303);
  }

  @Get(':id')
  @ManageRoute()
  async show(@Editor() editor: EditorSession, @Param('id') id: string, @Query('done') done: unknown, @Res() reply: FastifyReply) {
    administrator(editor);
    const source = await this.find(editor, id);
    return this.showForm(reply, editor, source, await this.valuesOf(source), [], 200, notices[String(done)]);
  }

  @Post(':id')
  @ManageRoute()
  async update(@Editor() editor: EditorSession, @Param('id') id: string, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const source = await this.find(editor, id);
    const values = readForm(body, source.kind);
    try {
      await this.sources.update(editor.actor, source.id, toWrite(values, text(body?.password), source.kind));
    } catch (err) {
      if (!(err instanceof WpError) || err.status !== 400) throw err;
      return this.showForm(
        reply,
        editor,
        source,
        values,
        formErrors(err, (p) => FIELD_OF[p], 'url'),
        400,
      );
    }
    return reply.redirect(`${this.views.path('sources', source.id)}?done=saved`, 303);
  }

  @Post(':id/run')
  @ManageRoute()
  async run(@Editor() editor: EditorSession, @Param('id') id: string, @Res() reply: FastifyReply) {
    administrator(editor);
    const source = await this.find(editor, id);
    try {
      await this.sources.runNow(editor.actor, source.id);
    } catch (err) {
      if (err instanceof WpError && err.status === 409) return reply.redirect(`${this.views.path('sources', source.id)}?done=busy`, 303);
      throw err;
    }
    return reply.redirect(`${this.views.path('sources', source.id)}?done=run`, 303);
  }

  @Get(':id/delete')
  @ManageRoute()
  async confirmDelete(@Editor() editor: EditorSession, @Param('id') id: string, @Res() reply: FastifyReply) {
    administrator(editor);
    const source = await this.find(editor, id);
    return this.views.send(reply, { template: 'sources-delete', title: 'Delete this source?', current: 'sources', editor, data: { source } });
  }

  @Post(':id/delete')
  @ManageRoute()
  async delete(@Editor() editor: EditorSession, @Param('id') id: string, @Res() reply: FastifyReply) {
    administrator(editor);
    const source = await this.find(editor, id);
    await this.sources.remove(editor.actor, source.id);
    return reply.redirect(`${this.views.path('sources')}?done=deleted`, 303);
  }

  private async find(editor: EditorSession, id: string): Promise<Source> {
    if (!/^\d{1,10}$/.test(id)) throw new ManageRefusal(404, 'No such source', 'This source does not exist, or was deleted meanwhile.');
    try {
      return (await this.sources.get(editor.actor, Number(id))) as Source;
    } catch (err) {
      if (err instanceof WpError && err.status === 404) throw new ManageRefusal(404, 'No such source', 'This source does not exist, or was deleted meanwhile.');
      throw err;
    }
  }

  /** A stored source as the form's values; its categories by name (one per line). */
  private async valuesOf(source: Source): Promise<SourceValues> {
    const ids = (source.categories as number[]) ?? [];
    const terms = ids.length === 0 ? new Map() : await this.terms.getMany('category', ids);
    const window = source.window_days as [number, number] | null;
    return {
      kind: source.kind,
      url: String(source.url),
      interval_minutes: String(source.interval_minutes),
      enabled: Boolean(source.enabled),
      status: (source.status as string | null) ?? '',
      categories: ids.map((id) => (terms.get(id) as { name?: string } | undefined)?.name ?? String(id)).join('\n'),
      author: (source.author as string | null) ?? '',
      login: '',
      forget_credentials: false,
      window_from: window ? String(window[0]) : '-30',
      window_to: window ? String(window[1]) : '365',
      keep_local_edits: Boolean(source.keep_local_edits),
      on_source_delete: String(source.on_source_delete),
    };
  }

  private async showForm(
    reply: FastifyReply,
    editor: EditorSession,
    source: Source | null,
    values: SourceValues,
    errors: FieldError[],
    status = 200,
    notice?: string,
  ) {
    const runs = source ? (await this.sources.listRuns(editor.actor, source.id)).runs : [];
    return this.views.send(reply, {
      template: source ? 'sources-edit' : 'sources-new',
      title: source ? `Source ${String(source.url)}` : 'Add a source',
      current: 'sources',
      editor,
      status,
      data: {
        source,
        values,
        errors,
        notice,
        runs,
        kinds: SOURCE_KINDS.map((k) => ({
          value: k,
          label: k === 'tec' ? 'tec (another calendar of this kind or The Events Calendar)' : 'ics (an iCalendar feed)',
        })),
        statuses: [{ value: '', label: 'As the source has it (tec), else Published' }, ...SOURCE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))],
        onDelete: ON_SOURCE_DELETE.map((v) => ({ value: v, label: v === 'trash' ? 'Move it to the trash' : 'Keep it' })),
      },
    });
  }
}

const STATUS_LABELS: Record<string, string> = { publish: 'Published', draft: 'Draft', pending: 'Pending review' };

const notices: Record<string, string> = {
  created: 'The source was added. It runs now, then every interval.',
  saved: 'Saved.',
  run: 'A run was queued: it starts within moments. Reload this page to see it.',
  busy: 'A run of this source is going now: nothing else was started.',
};

function blank(author: string): SourceValues {
  return {
    kind: 'ics',
    url: '',
    interval_minutes: '60',
    enabled: true,
    status: '',
    categories: '',
    author,
    login: '',
    forget_credentials: false,
    window_from: '-30',
    window_to: '365',
    keep_local_edits: true,
    on_source_delete: 'trash',
  };
}

/** The posted form as its values (unchecked boxes are absent: false). */
function readForm(body: Form, kind: string | null): SourceValues {
  return {
    kind: kind ?? text(body?.kind),
    url: text(body?.url).trim(),
    interval_minutes: text(body?.interval_minutes).trim(),
    enabled: body?.enabled !== undefined,
    status: text(body?.status),
    categories: text(body?.categories, 10_000),
    author: text(body?.author).trim(),
    login: text(body?.login),
    forget_credentials: body?.forget_credentials !== undefined,
    window_from: text(body?.window_from).trim(),
    window_to: text(body?.window_to).trim(),
    keep_local_edits: body?.keep_local_edits !== undefined,
    on_source_delete: text(body?.on_source_delete),
  };
}

/**
 * The write body SourcesService takes (the API's fields): only what the kind has; on an edit,
 * an empty login and password keep the stored ones unless "forget" is ticked.
 */
function toWrite(values: SourceValues, password: string, current: string | null): Record<string, unknown> {
  const kind = current ?? values.kind;
  const body: Record<string, unknown> = {
    url: values.url,
    interval_minutes: values.interval_minutes === '' ? undefined : values.interval_minutes,
    enabled: values.enabled,
    categories: values.categories
      .split(/\r?\n/)
      .map((c) => c.trim())
      .filter((c) => c !== ''),
    keep_local_edits: values.keep_local_edits,
    on_source_delete: values.on_source_delete || undefined,
  };
  if (current === null) body.kind = values.kind;
  if (values.status !== '') body.status = values.status;
  if (values.author !== '') body.author = values.author;
  if (kind === 'tec') {
    if (values.forget_credentials) {
      body.login = null;
      body.password = null;
    } else {
      if (values.login !== '') body.login = values.login;
      if (password !== '') body.password = password;
    }
  }
  if (kind === 'ics') body.window_days = [values.window_from, values.window_to];
  return body;
}

function text(value: unknown, max = 2000): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}
