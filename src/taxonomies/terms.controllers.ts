import { Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { CreateDocs, IdParamDoc, ReadDocs, UpdateDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ListCategoriesQueryDto, ListTermsQueryDto } from './dto/list-terms.query.dto';
import { CategoryDto, CategoryListDto, TagDto, TagListDto } from './dto/term-response.dto';
import { CreateCategoryDto, CreateTermDto, UpdateCategoryDto, UpdateTermDto } from './dto/write-term.dto';
import { TaxonomiesService } from './taxonomies.service';

/* Two thin controllers over one service: categories and tags differ only in `parent`. */

@ApiTags('categories')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/categories`)
export class CategoriesController {
  constructor(private readonly taxonomies: TaxonomiesService) {}

  @Get()
  @ReadDocs('List event categories', CategoryListDto)
  list(@Query() q: ListCategoriesQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.taxonomies.list('category', q, raw);
  }

  @Post()
  @CreateDocs('Create a category (author and above)', CreateCategoryDto, CategoryDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateCategoryDto) {
    return this.taxonomies.create(actor, 'category', input);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read a category', CategoryDto)
  get(@PathId() id: number) {
    return this.taxonomies.get('category', id);
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update a category (partial)', UpdateCategoryDto, CategoryDto)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.update(actor, 'category', id, input, ifMatch);
  }

  @Put(':id')
  @IdParamDoc()
  @UpdateDocs('Update a category (partial, same as POST)', UpdateCategoryDto, CategoryDto)
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Patch(':id')
  @IdParamDoc()
  @UpdateDocs('Update a category (partial, same as POST)', UpdateCategoryDto, CategoryDto)
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateCategoryDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Delete(':id')
  @IdParamDoc()
  @ReadDocs('Delete a category permanently; its children move up to its parent', CategoryDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.remove(actor, 'category', id, ifMatch);
  }
}

@ApiTags('tags')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/tags`)
export class TagsController {
  constructor(private readonly taxonomies: TaxonomiesService) {}

  @Get()
  @ReadDocs('List event tags', TagListDto)
  list(@Query() q: ListTermsQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.taxonomies.list('tag', q, raw);
  }

  @Post()
  @CreateDocs('Create a tag (editor and above)', CreateTermDto, TagDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateTermDto) {
    return this.taxonomies.create(actor, 'tag', input);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read a tag', TagDto)
  get(@PathId() id: number) {
    return this.taxonomies.get('tag', id);
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update a tag (partial)', UpdateTermDto, TagDto)
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.update(actor, 'tag', id, input, ifMatch);
  }

  @Put(':id')
  @IdParamDoc()
  @UpdateDocs('Update a tag (partial, same as POST)', UpdateTermDto, TagDto)
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Patch(':id')
  @IdParamDoc()
  @UpdateDocs('Update a tag (partial, same as POST)', UpdateTermDto, TagDto)
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateTermDto, @IfMatch() ifMatch: string | undefined) {
    return this.update(actor, id, input, ifMatch);
  }

  @Delete(':id')
  @IdParamDoc()
  @ReadDocs('Delete a tag permanently', TagDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @IfMatch() ifMatch: string | undefined) {
    return this.taxonomies.remove(actor, 'tag', id, ifMatch);
  }
}
