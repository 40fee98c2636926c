import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { bySlug, CreateDocs, DeleteDocs, ListDocs, ReadDocs, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { linkedItemRouteTexts } from '../items';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { ListVenuesQueryDto } from './dto/list-venues.query.dto';
import { VenueDto, VenueListDto } from './dto/venue-response.dto';
import { CreateVenueDto, UpdateVenueDto } from './dto/write-venue.dto';
import { VenuesService } from './venues.service';

/* POST, PUT and PATCH of an item are one partial update (spec endpoints.md §0); by id or by slug. */

const TEXT = linkedItemRouteTexts('venue');

@ApiTags('venues')
@Controller(`${API_NAMESPACE}/venues`)
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Get()
  @ListDocs('venue', TEXT.list, VenueListDto)
  list(@CurrentActor() actor: Actor | null, @Query() q: ListVenuesQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.venues.items.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('venue', TEXT.create, CreateVenueDto, VenueDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateVenueDto, @RawInput() raw: Record<string, unknown>) {
    return this.venues.items.create(actor, input, raw);
  }

  @Get('by-slug/:slug')
  @ReadDocs('venue', bySlug(TEXT.read), VenueDto, 'slug')
  getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.venues.items.get(actor, { slug });
  }

  @Post('by-slug/:slug')
  @UpdateDocs('venue', bySlug(TEXT.update), UpdateVenueDto, VenueDto, 'slug')
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
  @UpdateDocs('venue', sameAsPost(bySlug(TEXT.update), 'PUT'), UpdateVenueDto, VenueDto, 'slug')
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
  @UpdateDocs('venue', sameAsPost(bySlug(TEXT.update), 'PATCH'), UpdateVenueDto, VenueDto, 'slug')
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
  @DeleteDocs('venue', bySlug(TEXT.delete), VenueDto, 'slug')
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.venues.items.remove(actor, { slug }, q.force === true, ifMatch);
  }

  @Get(':id')
  @ReadDocs('venue', TEXT.read, VenueDto, 'id')
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.venues.items.get(actor, { id });
  }

  @Post(':id')
  @UpdateDocs('venue', TEXT.update, UpdateVenueDto, VenueDto, 'id')
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
  @UpdateDocs('venue', sameAsPost(TEXT.update, 'PUT'), UpdateVenueDto, VenueDto, 'id')
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
  @UpdateDocs('venue', sameAsPost(TEXT.update, 'PATCH'), UpdateVenueDto, VenueDto, 'id')
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
  @DeleteDocs('venue', TEXT.delete, VenueDto, 'id')
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.venues.items.remove(actor, { id }, q.force === true, ifMatch);
  }
}
