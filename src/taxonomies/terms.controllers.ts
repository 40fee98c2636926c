import { Controller, Delete, Get, Inject, Patch, Post, Put, Query, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { DeclaredType } from '../common/http/declared-type';
import { ItemFields, ListFields } from '../common/http/fields-routes';
import { CurrentActor, Input, PathId, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { code, CreateDocs, DeleteDocs, DocKind, ListDocs, ReadDocs, RouteText, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ListCategoriesQueryDto, ListTermsQueryDto } from './dto/list-terms.query.dto';
import { CategoryListDto, TagListDto, TermDto } from './dto/term-response.dto';
import { CreateCategoryDto, CreateTermDto, TermWrite, UpdateCategoryDto, UpdateTermDto } from './dto/write-term.dto';
import type { Taxonomy } from './entities/term.entity';
import { TermsService } from './terms.service';
import { TERM_COLLECTION } from './term.presenter';

/* Two thin controllers over one service, written once: categories and tags differ only in `parent`. */

/** A taxonomy in the routes' documentation: terms are always public, and their names and slugs are unique. */
function termDocKind(kind: Taxonomy): DocKind {
  return {
    noun: kind,
    article: 'a',
    linked: false,
    errors: (role) =>
      role === 'create' || role === 'update'
        ? {
            400: [
              code('term_exists', `another ${kind} has this name at the same level; \`data.term_id\` is its id`),
              code('duplicate_term_slug', `the given slug is already used by another ${kind}`),
            ],
          }
        : {},
  };
}

/** What /doc says about the routes of categories and tags. */
function termTexts(kind: Taxonomy): Record<'list' | 'create' | 'read' | 'update' | 'delete', RouteText> {
  const plural = kind === 'category' ? 'categories' : 'tags';
  const who = kind === 'category' ? 'Authors, editors and administrators' : 'Editors and administrators';
  return {
    list: {
      summary: `List ${plural}`,
      description:
        `Event ${plural} in name order, with paging; by default only those used by at least one event (\`hide_empty\`). ` +
        'Reading is open to everyone. A page past the last answers with an empty list.',
    },
    create: {
      summary: `Create a ${kind}`,
      description: `\`name\` is required; the slug is made from it unless given. ${who} may create ${plural}.`,
    },
    read: { summary: `Read a ${kind}`, description: `One ${kind}. Reading is open to everyone.` },
    update: {
      summary: `Update a ${kind}`,
      description: `Changes only the fields you send. ${who} may edit ${plural}.`,
    },
    delete: {
      summary: `Delete a ${kind}`,
      description:
        `Deletes the ${kind} for good and removes it from its events` +
        (kind === 'category' ? '; its child categories move up to its parent.' : '.') +
        ` ${who} may delete ${plural}.`,
    },
  };
}

/** What a taxonomy brings to its routes: the classes of its inputs and of its list answer. */
interface TermRoutes {
  listQuery: Type<ListTermsQueryDto>;
  createDto: Type<TermWrite>;
  updateDto: Type<TermWrite>;
  listDto: Type;
}

/**
 * The routes of one taxonomy (spec endpoints.md §6). The concrete controller extends the class
 * made here and adds only `@ApiTags` and `@Controller(path)`, so its name gives the operation
 * ids (`TagsController_list`); a new class per taxonomy, because Nest and @nestjs/swagger keep
 * the route and documentation metadata on the methods themselves.
 */
function termsController(taxonomy: Taxonomy, r: TermRoutes) {
  const { listQuery, createDto, updateDto, listDto } = r;
  const TEXT = termTexts(taxonomy);
  const DOCS = termDocKind(taxonomy);

  class TermsController {
    // Named, not inferred: the concrete controller declares no constructor for Nest to read.
    constructor(@Inject(TermsService) private readonly terms: TermsService) {}

    @Get()
    @ListFields(TERM_COLLECTION[taxonomy])
    @ListDocs(DOCS, TEXT.list, listDto)
    list(@CurrentActor() actor: Actor | null, @Query() @DeclaredType(listQuery) q: ListTermsQueryDto, @RawQuery() raw: Record<string, unknown>) {
      return this.terms.list(taxonomy, q, raw, actor);
    }

    @Post()
    @CreateDocs(DOCS, TEXT.create, createDto, TermDto)
    create(@CurrentActor() actor: Actor | null, @Input() @DeclaredType(createDto) input: TermWrite) {
      return this.terms.create(actor, taxonomy, input);
    }

    @Get(':id')
    @ItemFields()
    @ReadDocs(DOCS, TEXT.read, TermDto, 'id')
    get(@PathId() id: number) {
      return this.terms.get(taxonomy, id);
    }

    @Post(':id')
    @UpdateDocs(DOCS, TEXT.update, updateDto, TermDto, 'id')
    update(
      @CurrentActor() actor: Actor | null,
      @PathId() id: number,
      @Input() @DeclaredType(updateDto) input: TermWrite,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.terms.update(actor, taxonomy, id, input, ifMatch);
    }

    @Put(':id')
    @UpdateDocs(DOCS, sameAsPost(TEXT.update, 'PUT'), updateDto, TermDto, 'id')
    put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() @DeclaredType(updateDto) input: TermWrite, @IfMatch() ifMatch: string | undefined) {
      return this.update(actor, id, input, ifMatch);
    }

    @Patch(':id')
    @UpdateDocs(DOCS, sameAsPost(TEXT.update, 'PATCH'), updateDto, TermDto, 'id')
    patch(
      @CurrentActor() actor: Actor | null,
      @PathId() id: number,
      @Input() @DeclaredType(updateDto) input: TermWrite,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.update(actor, id, input, ifMatch);
    }

    @Delete(':id')
    @DeleteDocs(DOCS, TEXT.delete, TermDto, 'id')
    remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @IfMatch() ifMatch: string | undefined) {
      return this.terms.remove(actor, taxonomy, id, ifMatch);
    }
  }
  return TermsController;
}

@ApiTags('categories')
@Controller(`${API_NAMESPACE}/categories`)
export class CategoriesController extends termsController('category', {
  listQuery: ListCategoriesQueryDto,
  createDto: CreateCategoryDto,
  updateDto: UpdateCategoryDto,
  listDto: CategoryListDto,
}) {}

@ApiTags('tags')
@Controller(`${API_NAMESPACE}/tags`)
export class TagsController extends termsController('tag', {
  listQuery: ListTermsQueryDto,
  createDto: CreateTermDto,
  updateDto: UpdateTermDto,
  listDto: TagListDto,
}) {}
