import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_NAMESPACE } from '../config/app-config';
import { linkedItemController } from '../linked-items';
import { ListVenuesQueryDto } from './dto/list-venues.query.dto';
import { VenueDto, VenueListDto } from './dto/venue-response.dto';
import { CreateVenueDto, UpdateVenueDto } from './dto/write-venue.dto';
import { VENUE_KIND, VENUE_TOKENS } from './venue-kind';

/** The venue routes (spec endpoints.md §5): the routes organizers have too, for venues. */
@ApiTags('venues')
@Controller(`${API_NAMESPACE}/venues`)
export class VenuesController extends linkedItemController({
  kind: 'venue',
  collection: VENUE_KIND.collection,
  tokens: VENUE_TOKENS,
  listQuery: ListVenuesQueryDto,
  createDto: CreateVenueDto,
  updateDto: UpdateVenueDto,
  itemDto: VenueDto,
  listDto: VenueListDto,
}) {}
