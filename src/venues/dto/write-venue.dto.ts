import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LinkedItemFieldsDto } from '../../linked-items';
import { AnyString, LooseBool, NonEmptyString, Optional, Required, FitsColumn } from '../../common/params';
import { VENUE_TEXT } from '../venue-text';

const text = (description: string) => ({ type: 'string', description: `${description}; may be empty` }) as const;
// No `default` in write bodies (generated clients would make the field required): the text says it.
const flag = (description: string) =>
  ({ type: 'boolean', description: `${description}; true when omitted on create (also accepts "true", "yes", "on", "1" and their opposites)` }) as const;

/** Venue write fields besides the shared ones (spec endpoints.md §5.2). */
class VenueFieldsDto extends LinkedItemFieldsDto {
  @ApiPropertyOptional(text('Street address'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'address')
  address?: string;

  @ApiPropertyOptional(text('City'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'city')
  city?: string;

  @ApiPropertyOptional(text('Country'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'country')
  country?: string;

  @ApiPropertyOptional(text('Province'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'province')
  province?: string;

  @ApiPropertyOptional(text('State'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'state')
  state?: string;

  @ApiPropertyOptional(text('Postal code'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'zip')
  zip?: string;

  @ApiPropertyOptional(text('State or province'))
  @Optional()
  @AnyString()
  @FitsColumn(VENUE_TEXT, 'stateprovince')
  stateprovince?: string;

  @ApiPropertyOptional(flag('Show a map'))
  @Optional()
  @LooseBool()
  show_map?: boolean;

  @ApiPropertyOptional(flag('Show a map link'))
  @Optional()
  @LooseBool()
  show_map_link?: boolean;
}

/** POST /venues: the name is required. */
export class CreateVenueDto extends VenueFieldsDto {
  @ApiProperty({ type: 'string', description: 'Venue name' })
  @Required()
  @NonEmptyString()
  @FitsColumn(VENUE_TEXT, 'venue')
  venue: string;
}

/** POST|PUT|PATCH /venues/{id}: every field optional; the name, if given, non-empty. */
export class UpdateVenueDto extends VenueFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Venue name' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(VENUE_TEXT, 'venue')
  venue?: string;
}
