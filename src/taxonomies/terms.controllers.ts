import { Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { CreateDocs, DeleteDocs, ListDocs, ReadDocs, RouteText, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ListCategoriesQueryDto, ListTermsQueryDto } from './dto/list-terms.query.dto';
import { CategoryDto, CategoryListDto, TagDto, TagListDto } from './dto/term-response.dto';
import { CreateCategoryDto, CreateTermDto, UpdateCategoryDto, UpdateTermDto } from './dto/write-term.dto';
import { TaxonomiesService } from './taxonomies.service';

/* Two thin controllers over one service: categories and tags differ only in `parent`. */

/** What /doc says about the routes of categories and tags. */
function termTexts(kind: 'category' | 'tag'): Record<'list' | 'create' | 'read' | 'update' | 'delete', RouteText> {
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
const CATEGORY = termTexts('category');
const TAG = termTexts('tag');

@ApiTags('categories')
@Controller(`${API_NAMESPACE}/categories`)
export class CategoriesController {
  constructor(private readonly taxonomies: TaxonomiesService) {}

  @Get()
  @ListDocs('category', CATEGORY.list, CategoryListDto)
  list(@Query() q: ListCategoriesQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.taxonomies.list('category', q, raw);
  }

  @Post()
  @CreateDocs('category', CATEGORY.create, CreateCategoryDto, CategoryDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateCategoryDto) {
    return this.taxonomies.create(actor, 'category', input);
  }

  @Get(':id')
  @ReadDocs('category', CATEGORY.read, CategoryDto, 'id')
  get(@PathId() id: number) {
    return this.taxonomies.get('category', id);
  }

  @Post(':id')
  @UpdateDocs('category', CATEGORY.update, UpdateCategoryDto, CategoryDto, 'id')
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.update(actor, 'category', id, input, ifMatch);
  }

  @Put(':id')
  @UpdateDocs('category', sameAsPost(CATEGORY.update, 'PUT'), UpdateCategoryDto, CategoryDto, 'id')
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Patch(':id')
  @UpdateDocs('category', sameAsPost(CATEGORY.update, 'PATCH'), UpdateCategoryDto, CategoryDto, 'id')
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Delete(':id')
  @DeleteDocs('category', CATEGORY.delete, CategoryDto, 'id')
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.remove(actor, 'category', id, ifMatch);
  }
}

@ApiTags('tags')
@Controller(`${API_NAMESPACE}/tags`)
export class TagsController {
  constructor(private readonly taxonomies: TaxonomiesService) {}

  @Get()
  @ListDocs('tag', TAG.list, TagListDto)
  list(@Query() q: ListTermsQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.taxonomies.list('tag', q, raw);
  }

  @Post()
  @CreateDocs('tag', TAG.create, CreateTermDto, TagDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateTermDto) {
    return this.taxonomies.create(actor, 'tag', input);
  }

  @Get(':id')
  @ReadDocs('tag', TAG.read, TagDto, 'id')
  get(@PathId() id: number) {
    return this.taxonomies.get('tag', id);
  }

  @Post(':id')
  @UpdateDocs('tag', TAG.update, UpdateTermDto, TagDto, 'id')
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.update(actor, 'tag', id, input, ifMatch);
  }

  @Put(':id')
  @UpdateDocs('tag', sameAsPost(TAG.update, 'PUT'), UpdateTermDto, TagDto, 'id')
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Patch(':id')
  @UpdateDocs('tag', sameAsPost(TAG.update, 'PATCH'), UpdateTermDto, TagDto, 'id')
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Delete(':id')
  @DeleteDocs('tag', TAG.delete, TagDto, 'id')
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.remove(actor, 'tag', id, ifMatch);
  }
}
