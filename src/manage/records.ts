import { Body, Get, Inject, Param, Post, Query, Res, Type } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Actor, can, canDelete, canEdit } from '../common/auth';
import { WpError } from '../common/errors';
import { tagOfJson } from '../common/http/preconditions';
import type { ItemHooks } from '../items';
import type {
  Json,
  LinkedItemDeletes,
  LinkedItemEntity,
  LinkedItemFieldsDto,
  LinkedItemReads,
  LinkedItemTokens,
  LinkedItemWrites,
  ListLinkedItemsQueryDto,
} from '../linked-items';
import { UsersService } from '../users';
import type { FieldError } from './form-errors';
import { listed, STATUS_TABS, validated } from './form-input';
import { ManageRefusal } from './manage-refusals';
import { Editor, type EditorSession } from './manage-session';
import { ManageViews } from './manage-views';
import {
  changedMeanwhile,
  ConflictRow,
  conflictRows,
  EXTENSION_LABELS,
  formErrorsOf,
  isFormError,
  labelOf,
  LoadedRecord,
  noRight,
  postedValues,
  STATUS_LABELS,
  statusChoices,
  storedValues,
  text,
  Values,
  writeInput,
} from './record-form-values';
import { RecordCounts } from './record-counts';
import { ManageRoute } from './sign-in.controller';

type Form = Record<string, unknown>;

export { STATUS_LABELS } from './record-form-values';

/** One input of a record's own fields (beside name, description, status and the rest every record has). */
export interface RecordField {
  /** The API's write parameter, also the input's name. */
  param: string;
  label: string;
  type: 'text' | 'url' | 'email' | 'tel' | 'checkbox';
  help?: string;
}

/** What differs between the venue and the organizer pages: data, not code. */
export interface RecordKind {
  type: 'venue' | 'organizer';
  collection: 'venues' | 'organizers';
  /** "Venue", "Organizer". */
  noun: string;
  plural: string;
  /** The label of the name input (editing.md §7: "Venue name"). */
  nameLabel: string;
  fields: RecordField[];
  /** The fields shown in a list row after the name. */
  listColumns: { param: string; label: string }[];
  createDto: new () => LinkedItemFieldsDto;
  updateDto: new () => LinkedItemFieldsDto;
  /** The kind's reads, writes and deletes (VENUE_TOKENS, ORGANIZER_TOKENS) and its hooks (VenueHooks, OrganizerHooks: their parameters are fields of the form). */
  tokens: LinkedItemTokens;
  hooks: Type<ItemHooks<{ id: number }>>;
}

const TABS = STATUS_TABS;

const PER_PAGE = 20;

/**
 * The venue and organizer pages (editing.md §2), written once for both kinds: the list (status
 * tabs, search, paging, the events using each), the form (every writable field of endpoints.md
 * §5.2), save, trash and restore. Every read and write goes through the kind's own reads, writes
 * and deletes, those its API routes call, with the signed-in actor: the same checks, sanitising, change feed and
 * webhooks. The form carries the version (the tag of the record's single GET) it was opened at,
 * and a save over a newer version shows both instead of overwriting it.
 */
export function recordPagesController(kind: RecordKind) {
  class RecordPages {
    constructor(
      @Inject(kind.tokens.reads) readonly reads: LinkedItemReads<LinkedItemEntity>,
      @Inject(kind.tokens.writes) readonly writes: LinkedItemWrites<LinkedItemEntity>,
      @Inject(kind.tokens.deletes) readonly deletes: LinkedItemDeletes<LinkedItemEntity>,
      @Inject(kind.hooks) readonly hooks: ItemHooks<{ id: number }>,
      @Inject(ManageViews) readonly views: ManageViews,
      @Inject(RecordCounts) readonly counts: RecordCounts,
      @Inject(UsersService) readonly users: UsersService,
    ) {}

    // ---- the list ----

    @Get()
    @ManageRoute()
    async list(@Editor() editor: EditorSession, @Query() query: Form, @Res() reply: FastifyReply) {
      const actor = editor.actor;
      const search = text(query.search).trim();
      const tab = TABS.some((t) => t.key === query.status) ? String(query.status) : 'all';
      const page = Math.max(1, Math.min(100000, Number.parseInt(text(query.page), 10) || 1));
      const ask = (status: string, p: number, perPage: number) => {
        const q: Form = { page: p, per_page: perPage };
        if (search !== '') q.search = search;
        if (status !== 'all') q.status = status;
        return this.reads.list(actor, q as unknown as ListLinkedItemsQueryDto, { ...q });
      };
      let rows: Json[] = [];
      let total = 0;
      let totalPages = 0;
      let pastEnd = false;
      try {
        const answer = await ask(tab, page, PER_PAGE);
        rows = listed<Json>(answer.body.bytes, kind.collection);
        total = answer.total;
        totalPages = answer.totalPages;
      } catch (err) {
        // A page past the last (endpoints.md §5.1.2) is an empty page with a way back, not an error page.
        if (!(err instanceof WpError) || err.status !== 404) throw err;
        pastEnd = true;
      }
      const tabs = await Promise.all(TABS.map(async (t) => ({ ...t, count: t.key === tab && !pastEnd ? total : (await ask(t.key, 1, 1)).total })));
      const counts = await this.counts.eventCounts(
        kind.type,
        rows.map((r) => Number(r.id)),
      );
      const link = (changes: Form) => {
        const params = new URLSearchParams();
        const merged: Form = { search, status: tab, page, ...changes };
        if (merged.search) params.set('search', String(merged.search));
        if (merged.status !== 'all') params.set('status', String(merged.status));
        if (Number(merged.page) > 1) params.set('page', String(merged.page));
        const qs = params.toString();
        return `${this.views.path(kind.collection)}${qs ? `?${qs}` : ''}`;
      };
      return this.views.send(reply, {
        template: 'records-list',
        title: kind.plural,
        current: kind.collection,
        editor,
        data: {
          kind,
          search,
          tab,
          tabs: tabs.map((t) => ({ ...t, href: link({ status: t.key, page: 1 }) })),
          page,
          total,
          totalPages,
          pastEnd,
          firstPage: link({ page: 1 }),
          previous: page > 1 ? link({ page: page - 1 }) : null,
          next: page < totalPages ? link({ page: page + 1 }) : null,
          mayCreate: can(actor, 'create_items'),
          rows: rows.map((r) => ({
            id: Number(r.id),
            name: String(r[kind.type] ?? ''),
            status: STATUS_LABELS[String(r.status)] ?? String(r.status),
            columns: kind.listColumns.map((c) => String(r[c.param] ?? '')),
            events: counts.get(Number(r.id)) ?? 0,
            href: this.views.path(kind.collection, Number(r.id)),
            eventsHref: `${this.views.path('events')}?${kind.type}=${Number(r.id)}`,
          })),
        },
      });
    }

    // ---- the form ----

    @Get('new')
    @ManageRoute()
    async newForm(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
      if (!can(editor.actor, 'create_items')) throw noRight(kind);
      const values: Values = { [kind.type]: '', description: '', slug: '', status: can(editor.actor, 'publish_items') ? 'publish' : 'draft' };
      for (const f of kind.fields) values[f.param] = f.type === 'checkbox' ? true : '';
      for (const p of this.extensionParams()) values[p] = '';
      return this.showForm(reply, editor, { values, record: null });
    }

    @Post('new')
    @ManageRoute()
    async create(@Editor() editor: EditorSession, @Body() body: Form, @Res() reply: FastifyReply) {
      if (!can(editor.actor, 'create_items')) throw noRight(kind);
      const values = postedValues(kind, this.extensionParams(), body);
      const input = writeInput(kind, this.extensionParams(), values, null);
      let created: Json;
      try {
        const dto = validated(kind.createDto, input);
        created = await this.writes.create(editor.actor, dto, input);
      } catch (err) {
        if (!isFormError(err)) throw err;
        return this.showForm(reply, editor, { values, record: null, errors: formErrorsOf(kind, this.extensionParams(), err) }, 400);
      }
      return reply.redirect(`${this.views.path(kind.collection, Number(created.id))}?saved=1`, 303);
    }

    @Get(':id')
    @ManageRoute()
    async editForm(
      @Editor() editor: EditorSession,
      @Param('id') rawId: string,
      @Query('saved') saved: unknown,
      @Query('restored') restored: unknown,
      @Res() reply: FastifyReply,
    ) {
      const record = await this.load(editor.actor, rawId);
      const notice = saved !== undefined ? 'Saved.' : restored !== undefined ? `The ${kind.noun.toLowerCase()} is out of the trash.` : undefined;
      return this.showForm(reply, editor, { values: storedValues(kind, this.extensionParams(), record), record, notice });
    }

    @Post(':id')
    @ManageRoute()
    async save(@Editor() editor: EditorSession, @Param('id') rawId: string, @Body() body: Form, @Res() reply: FastifyReply) {
      const record = await this.load(editor.actor, rawId);
      const values = postedValues(kind, this.extensionParams(), body);
      const version = text(body._version);
      // Saved over a newer version than the form was opened at: both are shown, nothing is written.
      if (version !== record.version) return this.showConflict(reply, editor, record, values);
      const input = writeInput(kind, this.extensionParams(), values, record);
      try {
        const dto = validated(kind.updateDto, input);
        await this.writes.update(editor.actor, { id: record.id }, dto, input, version);
      } catch (err) {
        if (err instanceof WpError && err.status === 412) return this.showConflict(reply, editor, await this.load(editor.actor, rawId), values);
        if (!isFormError(err)) throw err;
        return this.showForm(reply, editor, { values, record, errors: formErrorsOf(kind, this.extensionParams(), err) }, 400);
      }
      return reply.redirect(`${this.views.path(kind.collection, record.id)}?saved=1`, 303);
    }

    @Post(':id/trash')
    @ManageRoute()
    async trash(@Editor() editor: EditorSession, @Param('id') rawId: string, @Body() body: Form, @Res() reply: FastifyReply) {
      const record = await this.load(editor.actor, rawId);
      try {
        await this.deletes.remove(editor.actor, { id: record.id }, false, text(body._version) || undefined);
      } catch (err) {
        if (err instanceof WpError && err.status === 412) throw changedMeanwhile(kind, this.views.path(kind.collection, record.id));
        throw err;
      }
      return reply.redirect(`${this.views.path(kind.collection)}?status=trash`, 303);
    }

    @Post(':id/restore')
    @ManageRoute()
    async restore(@Editor() editor: EditorSession, @Param('id') rawId: string, @Body() body: Form, @Res() reply: FastifyReply) {
      const record = await this.load(editor.actor, rawId);
      if (record.entity.status !== 'trash') return reply.redirect(this.views.path(kind.collection, record.id), 303);
      // Back to the status it had before the trash (a contributor's is scaled as on any write).
      const status = record.entity.statusBeforeTrash ?? 'draft';
      try {
        await this.writes.update(editor.actor, { id: record.id }, validated(kind.updateDto, { status }), { status }, text(body._version) || undefined);
      } catch (err) {
        if (err instanceof WpError && err.status === 412) throw changedMeanwhile(kind, this.views.path(kind.collection, record.id));
        throw err;
      }
      return reply.redirect(`${this.views.path(kind.collection, record.id)}?restored=1`, 303);
    }

    // ---- helpers ----

    /** The record as the actor's single GET shows it (403 when not readable), its stored row, and its version. */
    async load(actor: Actor, rawId: string): Promise<LoadedRecord> {
      const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : 0;
      let entity: LinkedItemEntity;
      try {
        entity = await this.reads.require({ id });
      } catch (err) {
        if (err instanceof WpError && err.status === 400) throw new ManageRefusal(404, 'Not found', `There is no ${kind.noun.toLowerCase()} with this number.`);
        throw err;
      }
      const json = await this.reads.get(actor, { id });
      return { id, entity, json, version: tagOfJson(json) };
    }

    extensionParams(): string[] {
      return this.hooks.params();
    }

    async showForm(
      reply: FastifyReply,
      editor: EditorSession,
      form: { values: Values; record: LoadedRecord | null; errors?: FieldError[]; notice?: string; conflict?: ConflictRow[] },
      status = 200,
    ) {
      const actor = editor.actor;
      const { record, values } = form;
      const errors = form.errors ?? [];
      const trashed = record !== null && record.entity.status === 'trash';
      const mayEdit = record === null ? can(actor, 'create_items') : canEdit(actor, record.entity);
      const everyone = await this.users.list();
      const users = can(actor, 'assign_author') ? everyone : [];
      const author = record === null ? actor.login : (everyone.find((u) => u.id === record.entity.authorId)?.login ?? `#${record.entity.authorId}`);
      const name = values[kind.type];
      return this.views.send(reply, {
        template: 'records-form',
        title: record === null ? `New ${kind.noun.toLowerCase()}` : `${kind.noun}: ${String(name) || record.entity.name}`,
        current: kind.collection,
        editor,
        status,
        data: {
          kind,
          values,
          record: record && {
            id: record.id,
            version: record.version,
            url: record.json.url,
            image: (record.json.image as { url?: string } | undefined)?.url,
            trashed,
            mayDelete: canDelete(actor, record.entity),
          },
          action: record === null ? `${this.views.path(kind.collection)}new` : this.views.path(kind.collection, record.id),
          errors,
          summary: errors.map((e) => ({ field: e.field, message: `${labelOf(kind, e.field)}${e.message}` })),
          notice: form.notice,
          conflict: form.conflict,
          mayEdit,
          statuses: statusChoices(actor, String(values.status)),
          users: users.map((u) => ({ value: String(u.id), label: `${u.login} (${u.role})` })),
          author,
          extensionFields: this.extensionParams().map((p) => ({ param: p, label: EXTENSION_LABELS[p] ?? p })),
          listHref: this.views.path(kind.collection),
        },
      });
    }

    /** The form again with the user's values over the newest version, and what differs from the stored record. */
    async showConflict(reply: FastifyReply, editor: EditorSession, record: LoadedRecord, values: Values) {
      return this.showForm(reply, editor, { values, record, conflict: conflictRows(kind, this.extensionParams(), record, values) }, 409);
    }
  }
  return RecordPages;
}
