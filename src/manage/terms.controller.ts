import { Body, Controller, Get, Inject, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Actor, can } from '../common/auth';
import { WpError } from '../common/errors';
import { tagOfJson } from '../common/http/preconditions';
import {
  CreateCategoryDto,
  CreateTermDto,
  ListCategoriesQueryDto,
  TermsService,
  type Taxonomy,
  type TermJson,
  UpdateCategoryDto,
  UpdateTermDto,
} from '../taxonomies';
import type { FieldError } from './form-errors';
import { listed, validated } from './form-input';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageRefusal } from './manage-refusals';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageRoute } from './sign-in.controller';
import { categoryTree, errorsOf, isFormError, parentChoices, storedValues, summaryOf, type TermValues, type TreeRow, valuesOf } from './term-form-values';

type Form = Record<string, unknown>;

/** What differs between the category and tag pages. */
interface TermKind {
  taxonomy: Taxonomy;
  collection: 'categories' | 'tags';
  noun: string;
  plural: string;
  /** Who may change them (auth.md §2, §5). */
  capability: 'manage_categories' | 'manage_tags';
}

const KINDS: Record<Taxonomy, TermKind> = {
  category: { taxonomy: 'category', collection: 'categories', noun: 'Category', plural: 'Categories', capability: 'manage_categories' },
  tag: { taxonomy: 'tag', collection: 'tags', noun: 'Tag', plural: 'Tags', capability: 'manage_tags' },
};

/** Tags are many: a page of the API's largest size. */
const TAGS_PER_PAGE = 50;
/** Categories are shown whole as a tree, read through the API's list in pages of 50, up to this many. */
const MAX_CATEGORIES = 2000;

/**
 * The category and tag pages (editing.md §2): the list with counts (categories as an indented
 * tree, tags paged and searchable), add, rename, move under a parent, delete after a
 * confirmation page (no script needed). Every change goes through TermsService, as the
 * API's routes do, with the signed-in actor; the pages show no control the role may not use
 * (an author manages categories but not tags; a contributor neither) and refuse such a post
 * with a 403 page.
 */
function termPagesController(kind: TermKind) {
  class TermPages {
    constructor(
      @Inject(TermsService) readonly terms: TermsService,
      @Inject(ManageViews) readonly views: ManageViews,
    ) {}

    @Get()
    @ManageRoute()
    async list(@Editor() editor: EditorSession, @Query() query: Form, @Res() reply: FastifyReply) {
      return this.showList(reply, editor, query, { values: { name: '', slug: '', description: '', parent: '0' }, errors: [] });
    }

    @Post()
    @ManageRoute()
    async add(@Editor() editor: EditorSession, @Body() body: Form, @Res() reply: FastifyReply) {
      this.assertMayChange(editor.actor);
      const values = valuesOf(body);
      const input: Form = { name: values.name };
      if (values.slug !== '') input.slug = values.slug;
      if (values.description !== '') input.description = values.description;
      if (kind.taxonomy === 'category') input.parent = values.parent || '0';
      let created: TermJson;
      try {
        created = await this.terms.create(editor.actor, kind.taxonomy, validated(kind.taxonomy === 'category' ? CreateCategoryDto : CreateTermDto, input));
      } catch (err) {
        if (!isFormError(err)) throw err;
        return this.showList(reply, editor, {}, { values, errors: errorsOf(err, 'add') }, 400);
      }
      return reply.redirect(`${this.views.path(kind.collection)}?added=${created.id}`, 303);
    }

    @Get(':id')
    @ManageRoute()
    async editForm(@Editor() editor: EditorSession, @Param('id') rawId: string, @Query('saved') saved: unknown, @Res() reply: FastifyReply) {
      this.assertMayChange(editor.actor);
      const term = await this.load(rawId);
      return this.showEdit(reply, editor, term, { values: storedValues(term), errors: [], notice: saved !== undefined ? 'Saved.' : undefined });
    }

    @Post(':id')
    @ManageRoute()
    async save(@Editor() editor: EditorSession, @Param('id') rawId: string, @Body() body: Form, @Res() reply: FastifyReply) {
      this.assertMayChange(editor.actor);
      const term = await this.load(rawId);
      const values = valuesOf(body);
      const version = typeof body._version === 'string' ? body._version : '';
      if (version !== tagOfJson(term)) return this.showEdit(reply, editor, term, { values, errors: [], conflict: true }, 409);
      const stored = storedValues(term);
      const input: Form = {};
      for (const key of ['name', 'slug', 'description'] as const)
        if (values[key] !== stored[key] && !(key === 'slug' && values.slug === '')) input[key] = values[key];
      if (kind.taxonomy === 'category' && values.parent !== stored.parent) input.parent = values.parent || '0';
      try {
        await this.terms.update(
          editor.actor,
          kind.taxonomy,
          term.id,
          validated(kind.taxonomy === 'category' ? UpdateCategoryDto : UpdateTermDto, input),
          version,
        );
      } catch (err) {
        if (err instanceof WpError && err.status === 412)
          return this.showEdit(reply, editor, await this.load(rawId), { values, errors: [], conflict: true }, 409);
        if (!isFormError(err)) throw err;
        return this.showEdit(reply, editor, term, { values, errors: errorsOf(err, 'edit') }, 400);
      }
      return reply.redirect(`${this.views.path(kind.collection, term.id)}?saved=1`, 303);
    }

    @Get(':id/delete')
    @ManageRoute()
    async confirmDelete(@Editor() editor: EditorSession, @Param('id') rawId: string, @Res() reply: FastifyReply) {
      this.assertMayChange(editor.actor);
      const term = await this.load(rawId);
      return this.views.send(reply, {
        template: 'terms-delete',
        title: `Delete the ${kind.noun.toLowerCase()} “${term.name}”`,
        current: kind.collection,
        editor,
        data: { kind, term, version: tagOfJson(term), listHref: this.views.path(kind.collection) },
      });
    }

    @Post(':id/delete')
    @ManageRoute()
    async remove(@Editor() editor: EditorSession, @Param('id') rawId: string, @Body() body: Form, @Res() reply: FastifyReply) {
      this.assertMayChange(editor.actor);
      const term = await this.load(rawId);
      const version = typeof body._version === 'string' && body._version !== '' ? body._version : undefined;
      try {
        await this.terms.remove(editor.actor, kind.taxonomy, term.id, version);
      } catch (err) {
        if (err instanceof WpError && err.status === 412) {
          throw new ManageRefusal(
            412,
            'Changed meanwhile',
            `Someone else changed this ${kind.noun.toLowerCase()} after you opened the confirmation, so it was not deleted. Look at it again before deleting it.`,
          );
        }
        throw err;
      }
      return reply.redirect(`${this.views.path(kind.collection)}?deleted=${encodeURIComponent(term.name)}`, 303);
    }

    // ---- helpers ----

    /** auth.md §2: categories for authors and above, tags for editors and above; checked before anything is read of the post. */
    assertMayChange(actor: Actor): void {
      if (!can(actor, 'create_items') || !can(actor, kind.capability)) {
        throw new ManageRefusal(403, 'Not allowed', `Your role (${actor.role}) may not add, rename or delete ${kind.plural.toLowerCase()}.`);
      }
    }

    async load(rawId: string): Promise<TermJson> {
      const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : 0;
      try {
        return await this.terms.get(kind.taxonomy, id);
      } catch (err) {
        if (err instanceof WpError && err.status === 400) throw new ManageRefusal(404, 'Not found', `There is no ${kind.noun.toLowerCase()} with this number.`);
        throw err;
      }
    }

    /** Every category, read through the API's list (name order, empty ones too), as a tree. */
    async tree(): Promise<{ rows: TreeRow[]; truncated: boolean }> {
      const all: TermJson[] = [];
      let total = 0;
      for (let page = 1; page <= MAX_CATEGORIES / 50; page++) {
        const answer = await this.terms.list('category', listQuery({ page, per_page: 50, hide_empty: false, orderby: 'name' }), {});
        total = answer.total;
        all.push(...listed<TermJson>(answer.body.bytes, 'categories'));
        if (page >= answer.totalPages) break;
      }
      const rows = categoryTree(all);
      return { rows, truncated: total > all.length };
    }

    async showList(reply: FastifyReply, editor: EditorSession, query: Form, form: { values: TermValues; errors: FieldError[] }, status = 200) {
      const mayChange = can(editor.actor, 'create_items') && can(editor.actor, kind.capability);
      const search = typeof query.search === 'string' ? query.search.trim().slice(0, 200) : '';
      let rows: TreeRow[];
      let truncated = false;
      let page = 1;
      let totalPages = 0;
      let total = 0;
      if (kind.taxonomy === 'category') {
        ({ rows, truncated } = await this.tree());
        total = rows.length;
      } else {
        page = Math.max(1, Math.min(100000, Number.parseInt(typeof query.page === 'string' ? query.page : '', 10) || 1));
        const q: Form = { page, per_page: TAGS_PER_PAGE, hide_empty: false, orderby: 'name' };
        if (search !== '') q.search = search;
        const answer = await this.terms.list('tag', listQuery(q), {});
        rows = listed<TermJson>(answer.body.bytes, 'tags').map((t) => ({ ...t, depth: 0 }));
        totalPages = answer.totalPages;
        total = answer.total;
      }
      const pageHref = (p: number) => {
        const params = new URLSearchParams();
        if (search !== '') params.set('search', search);
        if (p > 1) params.set('page', String(p));
        const qs = params.toString();
        return `${this.views.path(kind.collection)}${qs ? `?${qs}` : ''}`;
      };
      const added = typeof query.added === 'string' ? rows.find((r) => String(r.id) === query.added) : undefined;
      const deleted = typeof query.deleted === 'string' ? query.deleted.slice(0, 200) : undefined;
      const notice = added ? `Added “${added.name}”.` : deleted !== undefined ? `Deleted “${deleted}”.` : query.added !== undefined ? 'Added.' : undefined;
      return this.views.send(reply, {
        template: 'terms-list',
        title: kind.plural,
        current: kind.collection,
        editor,
        status,
        data: {
          kind,
          rows: rows.map((r) => ({ ...r, href: this.views.path(kind.collection, r.id) })),
          truncated,
          total,
          search,
          page,
          totalPages,
          previous: page > 1 ? pageHref(page - 1) : null,
          next: page < totalPages ? pageHref(page + 1) : null,
          mayChange,
          values: form.values,
          errors: form.errors,
          summary: summaryOf(form.errors),
          notice,
          parents: kind.taxonomy === 'category' ? parentChoices(rows) : [],
        },
      });
    }

    async showEdit(
      reply: FastifyReply,
      editor: EditorSession,
      term: TermJson,
      form: { values: TermValues; errors: FieldError[]; notice?: string; conflict?: boolean },
      status = 200,
    ) {
      const parents = kind.taxonomy === 'category' ? parentChoices((await this.tree()).rows, term.id) : [];
      return this.views.send(reply, {
        template: 'terms-edit',
        title: `${kind.noun}: ${term.name}`,
        current: kind.collection,
        editor,
        status,
        data: {
          kind,
          term,
          stored: storedValues(term),
          version: tagOfJson(term),
          values: form.values,
          errors: form.errors,
          summary: summaryOf(form.errors),
          notice: form.notice,
          conflict: form.conflict === true,
          parents,
          parentName: (id: string) => parents.find((p) => p.value === id)?.label.replace(/^(— )+/, '') ?? id,
          listHref: this.views.path(kind.collection),
          deleteHref: `${this.views.path(kind.collection, term.id)}delete`,
        },
      });
    }
  }
  return TermPages;
}

function listQuery(q: Form): ListCategoriesQueryDto {
  return q as unknown as ListCategoriesQueryDto;
}

@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/categories')
export class ManageCategoriesController extends termPagesController(KINDS.category) {}

@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/tags')
export class ManageTagsController extends termPagesController(KINDS.tag) {}
