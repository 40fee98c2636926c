import { Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor, Input, PathId, RawInput, RawQuery } from '../common/http/request-context';
import { IfMatch } from '../common/http/preconditions';
import { CreateDocs, IdParamDoc, ReadDocs, UpdateDocs, SlugParamDoc } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { DeleteItemQueryDto } from '../items';
import { ListOrganizersQueryDto } from './dto/list-organizers.query.dto';
import { OrganizerDto, OrganizerListDto } from './dto/organizer-response.dto';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/write-organizer.dto';
import { OrganizersService } from './organizers.service';

/* POST, PUT and PATCH of an item are one partial update (spec endpoints.md §0); by id or by slug. */

@ApiTags('organizers')
@ApiBasicAuth('basicAuth')
@Controller(`${API_NAMESPACE}/organizers`)
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @ReadDocs('List organizers, newest first', OrganizerListDto)
  list(@CurrentActor() actor: Actor | null, @Query() q: ListOrganizersQueryDto, @RawQuery() raw: Record<string, unknown>) {
    return this.organizers.items.list(actor, q, raw);
  }

  @Post()
  @CreateDocs('Create an organizer (contributor and above); an existing organizer with the same name is reused', CreateOrganizerDto, OrganizerDto)
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateOrganizerDto, @RawInput() raw: Record<string, unknown>) {
    return this.organizers.items.create(actor, input, raw);
  }

  @Get('by-slug/:slug')
  @SlugParamDoc()
  @ReadDocs('Read an organizer by slug (with json_ld)', OrganizerDto)
  getBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string) {
    return this.organizers.items.get(actor, { slug });
  }

  @Post('by-slug/:slug')
  @SlugParamDoc()
  @UpdateDocs('Update an organizer by slug (partial)', UpdateOrganizerDto, OrganizerDto)
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
  @SlugParamDoc()
  @UpdateDocs('Update an organizer by slug (partial, same as POST)', UpdateOrganizerDto, OrganizerDto)
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
  @SlugParamDoc()
  @UpdateDocs('Update an organizer by slug (partial, same as POST)', UpdateOrganizerDto, OrganizerDto)
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
  @SlugParamDoc()
  @ReadDocs('Move an organizer to the trash by slug and unlink it from its events; with force=true delete it for good', OrganizerDto)
  removeBySlug(@CurrentActor() actor: Actor | null, @Param('slug') slug: string, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.organizers.items.remove(actor, { slug }, q.force === true, ifMatch);
  }

  @Get(':id')
  @IdParamDoc()
  @ReadDocs('Read an organizer (with json_ld)', OrganizerDto)
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.organizers.items.get(actor, { id });
  }

  @Post(':id')
  @IdParamDoc()
  @UpdateDocs('Update an organizer (partial)', UpdateOrganizerDto, OrganizerDto)
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
  @IdParamDoc()
  @UpdateDocs('Update an organizer (partial, same as POST)', UpdateOrganizerDto, OrganizerDto)
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
  @IdParamDoc()
  @UpdateDocs('Update an organizer (partial, same as POST)', UpdateOrganizerDto, OrganizerDto)
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
  @IdParamDoc()
  @ReadDocs('Move an organizer to the trash and unlink it from its events; with force=true delete it for good', OrganizerDto)
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number, @Query() q: DeleteItemQueryDto, @IfMatch() ifMatch: string | undefined) {
    return this.organizers.items.remove(actor, { id }, q.force === true, ifMatch);
  }
}
