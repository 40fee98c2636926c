import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { bySlug, CreateDocs, DeleteDocs, ListDocs, ReadDocs, sameAsPost, UpdateDocs } from '../common/http/route-docs';
import { linkedItemRouteTexts } from '../items';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { ListOrganizersQueryDto } from './dto/list-organizers.query.dto';
import { OrganizerDto, OrganizerListDto } from './dto/organizer-response.dto';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/write-organizer.dto';
import { OrganizersService } from './organizers.service';

/* POST, PUT and PATCH of an item are one partial update (spec endpoints.md §0); by id or by slug. */

const TEXT = linkedItemRouteTexts('organizer');

@ApiTags('organizers')
@Controller(`${API_NAMESPACE}/organizers`)
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @ListDocs('organizer', TEXT.list, OrganizerListDto)
  list(@CurrentActor() actor: Actor | null, @Query() q: ListOrganizersQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.organizers.items.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('organizer', TEXT.create, CreateOrganizerDto, OrganizerDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateOrganizerDto, @RawInput() raw: Record<string, unknown>) {
    return this.organizers.items.create(actor, input, raw);
  }

  @Get('by-slug/:slug')
  @ReadDocs('organizer', bySlug(TEXT.read), OrganizerDto, 'slug')
  getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.organizers.items.get(actor, { slug });
  }

  @Post('by-slug/:slug')
  @UpdateDocs('organizer', bySlug(TEXT.update), UpdateOrganizerDto, OrganizerDto, 'slug')
  updateBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Put('by-slug/:slug')
  @UpdateDocs('organizer', sameAsPost(bySlug(TEXT.update), 'PUT'), UpdateOrganizerDto, OrganizerDto, 'slug')
  putBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Patch('by-slug/:slug')
  @UpdateDocs('organizer', sameAsPost(bySlug(TEXT.update), 'PATCH'), UpdateOrganizerDto, OrganizerDto, 'slug')
  patchBySlug(
    @CurrentActor() actor: Actor | null,
    @Param('slug') slug: string,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { slug }, input, raw, ifMatch);
  }

  @Delete('by-slug/:slug')
  @DeleteDocs('organizer', bySlug(TEXT.delete), OrganizerDto, 'slug')
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.organizers.items.remove(actor, { slug }, q.force === true, ifMatch);
  }

  @Get(':id')
  @ReadDocs('organizer', TEXT.read, OrganizerDto, 'id')
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.organizers.items.get(actor, { id });
  }

  @Post(':id')
  @UpdateDocs('organizer', TEXT.update, UpdateOrganizerDto, OrganizerDto, 'id')
  update(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Put(':id')
  @UpdateDocs('organizer', sameAsPost(TEXT.update, 'PUT'), UpdateOrganizerDto, OrganizerDto, 'id')
  put(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Patch(':id')
  @UpdateDocs('organizer', sameAsPost(TEXT.update, 'PATCH'), UpdateOrganizerDto, OrganizerDto, 'id')
  patch(
    @CurrentActor() actor: Actor | null,
    @PathId() id: number,
    @Input() input: UpdateOrganizerDto,
    @RawInput() raw: Record<string, unknown>,
    @IfMatch() ifMatch: string | undefined,
  ) {
    return this.organizers.items.update(actor, { id }, input, raw, ifMatch);
  }

  @Delete(':id')
  @DeleteDocs('organizer', TEXT.delete, OrganizerDto, 'id')
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.organizers.items.remove(actor, { id }, q.force === true, ifMatch);
  }
}
