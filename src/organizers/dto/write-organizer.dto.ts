import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LinkedItemFieldsDto } from '../../linked-items';
import { AnyString, NonEmptyString, Optional, Required, FitsColumn } from '../../common/params';
import { ORGANIZER_TEXT } from '../organizer-text';

/** Organizer write fields besides the shared ones (spec endpoints.md §5.2). */
class OrganizerFieldsDto extends LinkedItemFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Email address (any text; may be empty)' })
  @Optional()
  @AnyString()
  @FitsColumn(ORGANIZER_TEXT, 'email')
  email?: string;
}

/** POST /organizers: the name is required. */
export class CreateOrganizerDto extends OrganizerFieldsDto {
  @ApiProperty({ type: 'string', description: 'Organizer name' })
  @Required()
  @NonEmptyString()
  @FitsColumn(ORGANIZER_TEXT, 'organizer')
  organizer: string;
}

/** POST|PUT|PATCH /organizers/{id}: every field optional; the name, if given, non-empty. */
export class UpdateOrganizerDto extends OrganizerFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Organizer name' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(ORGANIZER_TEXT, 'organizer')
  organizer?: string;
}
