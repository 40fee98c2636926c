import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_NAMESPACE } from '../config/app-config';
import { linkedItemController } from '../linked-items';
import { ListOrganizersQueryDto } from './dto/list-organizers.query.dto';
import { OrganizerDto, OrganizerListDto } from './dto/organizer-response.dto';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/write-organizer.dto';
import { ORGANIZER_KIND, ORGANIZER_TOKENS } from './organizer-kind';

/** The organizer routes (spec endpoints.md §5): the routes venues have too, for organizers. */
@ApiTags('organizers')
@Controller(`${API_NAMESPACE}/organizers`)
export class OrganizersController extends linkedItemController({
  kind: 'organizer',
  collection: ORGANIZER_KIND.collection,
  tokens: ORGANIZER_TOKENS,
  listQuery: ListOrganizersQueryDto,
  createDto: CreateOrganizerDto,
  updateDto: UpdateOrganizerDto,
  itemDto: OrganizerDto,
  listDto: OrganizerListDto,
}) {}
