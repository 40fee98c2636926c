import { Delete, Get, Inject, Param, Patch, Post, Put, Query, Type } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { DeclaredType } from '../common/http/declared-type';
import { ItemFields, ListFields } from '../common/http/fields-routes';
import { IfMatch } from '../common/http/preconditions';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { bySlug, CreateDocs, DeleteDocs, ListDocs, ReadDocs, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { DeleteItemQueryDto } from '../items';
import { linkedItemDocKind, linkedItemRouteTexts } from './linked-item-docs';
import type { LinkedItemEntity, LinkedItemType } from './linked-items';
import type { LinkedItemFieldsDto, ListLinkedItemsQueryDto } from './linked-items.dto';
import type { LinkedItemDeletes } from './linked-item-deletes';
import type { LinkedItemTokens } from './linked-item-providers';
import type { LinkedItemReads } from './linked-item-reads';
import type { LinkedItemWrites } from './linked-item-writes';

/** What a venue-like kind brings to its routes: the tokens of its reads, writes and deletes, and the classes of its inputs and answers. */
export interface LinkedItemRoutes {
  kind: LinkedItemType;
  /** The list's key (LinkedKind.collection). */
  collection: string;
  /** The kind's reads, writes and deletes (linkedItemProviders), which serve every route. */
  tokens: LinkedItemTokens;
  listQuery: Type<ListLinkedItemsQueryDto>;
  createDto: Type<LinkedItemFieldsDto>;
  updateDto: Type<LinkedItemFieldsDto>;
  /** The answers, as /doc describes them. */
  itemDto: Type;
  listDto: Type;
}

type Raw = Record<string, unknown>;

/**
 * The routes of venues and organizers (spec endpoints.md §5), written once: the concrete
 * controller extends the class made here and adds only `@ApiTags` and `@Controller(path)`, so
 * its name gives the operation ids (`VenuesController_list`). A new class per kind, because
 * Nest and @nestjs/swagger keep the route and documentation metadata on the methods themselves.
 *
 * POST, PUT and PATCH of an item are one partial update (spec endpoints.md §0); by id or by slug.
 */
export function linkedItemController(r: LinkedItemRoutes) {
  const { kind, listQuery, createDto, updateDto, itemDto, listDto } = r;
  const TEXT = linkedItemRouteTexts(kind);
  const DOCS = linkedItemDocKind(kind);

  class LinkedItemsController {
    constructor(
      @Inject(r.tokens.reads) private readonly reads: LinkedItemReads<LinkedItemEntity>,
      @Inject(r.tokens.writes) private readonly writes: LinkedItemWrites<LinkedItemEntity>,
      @Inject(r.tokens.deletes) private readonly deletes: LinkedItemDeletes<LinkedItemEntity>,
    ) {}

    @Get()
    @ListFields(r.collection)
    @ListDocs(DOCS, TEXT.list, listDto)
    list(@CurrentActor() actor: Actor | null, @Query() @DeclaredType(listQuery) q: ListLinkedItemsQueryDto, @RawQuery() raw: Raw) {
      return this.reads.list(actor, q, raw);
    }

    @Post()
    @CreateDocs(DOCS, TEXT.create, createDto, itemDto)
    create(@CurrentActor() actor: Actor | null, @Input() @DeclaredType(createDto) input: LinkedItemFieldsDto, @RawInput() raw: Raw) {
      return this.writes.create(actor, input, raw);
    }

    @Get('by-slug/:slug')
    @ItemFields()
    @ReadDocs(DOCS, bySlug(TEXT.read), itemDto, 'slug')
    getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
      return this.reads.get(actor, { slug });
    }

    @Post('by-slug/:slug')
    @UpdateDocs(DOCS, bySlug(TEXT.update), updateDto, itemDto, 'slug')
    updateBySlug(
      @CurrentActor() actor: Actor | null,
      @Param('slug') slug: string,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { slug }, input, raw, ifMatch);
    }

    @Put('by-slug/:slug')
    @UpdateDocs(DOCS, sameAsPost(bySlug(TEXT.update), 'PUT'), updateDto, itemDto, 'slug')
    putBySlug(
      @CurrentActor() actor: Actor | null,
      @Param('slug') slug: string,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { slug }, input, raw, ifMatch);
    }

    @Patch('by-slug/:slug')
    @UpdateDocs(DOCS, sameAsPost(bySlug(TEXT.update), 'PATCH'), updateDto, itemDto, 'slug')
    patchBySlug(
      @CurrentActor() actor: Actor | null,
      @Param('slug') slug: string,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { slug }, input, raw, ifMatch);
    }

    @Delete('by-slug/:slug')
    @DeleteDocs(DOCS, bySlug(TEXT.delete), itemDto, 'slug')
    removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
      return this.deletes.remove(actor, { slug }, q.force === true, ifMatch);
    }

    @Get(':id')
    @ItemFields()
    @ReadDocs(DOCS, TEXT.read, itemDto, 'id')
    get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
      return this.reads.get(actor, { id });
    }

    @Post(':id')
    @UpdateDocs(DOCS, TEXT.update, updateDto, itemDto, 'id')
    update(
      @CurrentActor() actor: Actor | null,
      @PathId() id: number,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { id }, input, raw, ifMatch);
    }

    @Put(':id')
    @UpdateDocs(DOCS, sameAsPost(TEXT.update, 'PUT'), updateDto, itemDto, 'id')
    put(
      @CurrentActor() actor: Actor | null,
      @PathId() id: number,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { id }, input, raw, ifMatch);
    }

    @Patch(':id')
    @UpdateDocs(DOCS, sameAsPost(TEXT.update, 'PATCH'), updateDto, itemDto, 'id')
    patch(
      @CurrentActor() actor: Actor | null,
      @PathId() id: number,
      @Input() @DeclaredType(updateDto) input: LinkedItemFieldsDto,
      @RawInput() raw: Raw,
      @IfMatch() ifMatch: string | undefined,
    ) {
      return this.writes.update(actor, { id }, input, raw, ifMatch);
    }

    @Delete(':id')
    @DeleteDocs(DOCS, TEXT.delete, itemDto, 'id')
    remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
      return this.deletes.remove(actor, { id }, q.force === true, ifMatch);
    }
  }
  return LinkedItemsController;
}
