import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { CreateDocs, IdParamDoc, ReadDocs, UpdateDocs, SlugParamDoc } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { ListVenuesQueryDto } from './dto/list-venues.query.dto';
import { VenueDto, VenueListDto } from './dto/venue-response.dto';
import { CreateVenueDto, UpdateVenueDto } from './dto/write-venue.dto';
import { VenuesService } from './venues.service';

/* POST, PUT and PATCH of an item are one partial update (spec endpoints.md §0); by id or by slug. */

@ApiTags('venues')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/venues`)
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Get()
  @ReadDocs('List venues, newest first', VenueListDto)
  list(@CurrentActor() actor: Actor | null, @Query() q: ListVenuesQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.venues.items.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('Create a venue (contributor and above); an existing venue with the same name is reused', CreateVenueDto, VenueDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateVenueDto, @RawInput() raw: Record<string, unknown>) {
    return this.venues.items.create(actor, input, raw);
  }

  @Get('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Read a venue by slug (with json_ld)', VenueDto)
  getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.venues.items.get(actor, { slug });
  }

  @Post('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update a venue by slug (partial)', UpdateVenueDto, VenueDto)
  updateBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Put('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update a venue by slug (partial, same as POST)', UpdateVenueDto, VenueDto)
  putBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Patch('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update a venue by slug (partial, same as POST)', UpdateVenueDto, VenueDto)
  patchBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Delete('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Move a venue to the trash by slug and unlink it from its events; with force=true delete it for good', VenueDto)
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.venues.items.remove(actor, { slug }, q.force === true, ifMatch);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read a venue (with json_ld)', VenueDto)
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.venues.items.get(actor, { id });
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update a venue (partial)', UpdateVenueDto, VenueDto)
  update(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Put(':id')
  @IdParamDoc()
  @UpdateDocs('Update a venue (partial, same as POST)', UpdateVenueDto, VenueDto)
  put(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Patch(':id')
  @IdParamDoc()
  @UpdateDocs('Update a venue (partial, same as POST)', UpdateVenueDto, VenueDto)
  patch(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateVenueDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.venues.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Delete(':id')
  @IdParamDoc()
  @ReadDocs('Move a venue to the trash and unlink it from its events; with force=true delete it for good', VenueDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.venues.items.remove(actor, { id }, q.force === true, ifMatch);
  }
}
