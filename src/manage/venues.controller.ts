import { Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CreateVenueDto, UpdateVenueDto, VENUE_TOKENS, VenueHooks } from '../venues';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { recordPagesController, type RecordKind } from './records';

/** The venue pages (editing.md §2, §7: "Venue name", "Address", "City", "Country"); the fields of endpoints.md §5.2. */
export const VENUE_PAGES: RecordKind = {
  type: 'venue',
  collection: 'venues',
  noun: 'Venue',
  plural: 'Venues',
  nameLabel: 'Venue name',
  fields: [
    { param: 'address', label: 'Address', type: 'text' },
    { param: 'city', label: 'City', type: 'text' },
    { param: 'country', label: 'Country', type: 'text' },
    { param: 'province', label: 'Province', type: 'text' },
    { param: 'state', label: 'State', type: 'text' },
    { param: 'stateprovince', label: 'State or province', type: 'text' },
    { param: 'zip', label: 'Postal code', type: 'text' },
    { param: 'phone', label: 'Phone', type: 'tel' },
    { param: 'website', label: 'Website', type: 'url', help: 'An address starting with https:// or http://, or nothing.' },
    { param: 'show_map', label: 'Show a map', type: 'checkbox' },
    { param: 'show_map_link', label: 'Show a map link', type: 'checkbox' },
  ],
  listColumns: [
    { param: 'city', label: 'City' },
    { param: 'country', label: 'Country' },
  ],
  createDto: CreateVenueDto,
  updateDto: UpdateVenueDto,
  tokens: VENUE_TOKENS,
  hooks: VenueHooks,
};

@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/venues')
export class ManageVenuesController extends recordPagesController(VENUE_PAGES) {}
