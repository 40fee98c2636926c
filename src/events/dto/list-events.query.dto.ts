import { ApiPropertyOptional } from '@nestjs/swagger';
import { dateInputDoc, idListQueryDoc } from '../../common/http/route-docs';
import { Allow } from 'class-validator';
import { termListQueryDoc, UNKNOWN_TERM_MESSAGE } from '../../taxonomies';
import { ListQueryDto } from '../../common/pagination';
import { DateParam, IdListParam, IntParam, NameList, NameListParam, NonEmptyString, Optional, StrictBool } from '../../common/params';

const arrayDoc = (description: string, type: 'integer' | 'string' = 'integer') =>
  ({ type: 'array', items: { type }, style: 'form', explode: false, description }) as const;

/** GET /events (spec endpoints.md §4.1). */
export class ListEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional(dateInputDoc('Lower bound on the event start (default: 00:00 yesterday, site zone)'))
  @Optional()
  @DateParam()
  start_date?: string;

  @ApiPropertyOptional(dateInputDoc('Upper bound on the event end (default: now + 24 months)'))
  @Optional()
  @DateParam()
  end_date?: string;

  @ApiPropertyOptional({ type: 'string', default: 'false', description: 'Truthy: use the given times exactly instead of whole days' })
  @Optional()
  @NonEmptyString()
  strict_dates?: string;

  @ApiPropertyOptional(dateInputDoc('Only events starting on or before'))
  @Optional()
  @DateParam()
  starts_before?: string;

  @ApiPropertyOptional(dateInputDoc('Only events starting on or after'))
  @Optional()
  @DateParam()
  starts_after?: string;

  @ApiPropertyOptional(dateInputDoc('Only events ending on or before'))
  @Optional()
  @DateParam()
  ends_before?: string;

  @ApiPropertyOptional(dateInputDoc('Only events ending on or after'))
  @Optional()
  @DateParam()
  ends_after?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Every word must occur in the title, description or excerpt' })
  @Optional()
  @NonEmptyString()
  search?: string;

  @ApiPropertyOptional(termListQueryDoc('Categories by id, slug or name; child categories match too'))
  @Optional()
  @NameListParam({ message: UNKNOWN_TERM_MESSAGE })
  categories?: NameList;

  @ApiPropertyOptional(termListQueryDoc('Tags by id, slug or name'))
  @Optional()
  @NameListParam({ message: UNKNOWN_TERM_MESSAGE })
  tags?: NameList;

  @ApiPropertyOptional(idListQueryDoc('Venue ids'))
  @Optional()
  @IdListParam()
  venue?: number[];

  @ApiPropertyOptional(idListQueryDoc('Organizer ids'))
  @Optional()
  @IdListParam()
  organizer?: number[];

  @ApiPropertyOptional({ type: 'boolean', description: 'true: only featured events; false: only the others' })
  @Optional()
  @StrictBool()
  featured?: boolean;

  @ApiPropertyOptional(arrayDoc('Statuses (publish only for anonymous callers and subscribers)', 'string'))
  @Allow()
  status?: unknown;

  @ApiPropertyOptional({ type: 'boolean', description: 'Geo extension: only events whose venue has coordinates' })
  @Allow()
  geoloc?: unknown;

  @ApiPropertyOptional({ type: 'number', description: 'Geo extension: latitude of the search centre' })
  @Allow()
  geoloc_lat?: unknown;

  @ApiPropertyOptional({ type: 'number', description: 'Geo extension: longitude of the search centre' })
  @Allow()
  geoloc_lng?: unknown;

  @ApiPropertyOptional(idListQueryDoc('Only these event ids; the date window is not applied'))
  @Optional()
  @IdListParam({ nonEmpty: true })
  include?: number[];

  @ApiPropertyOptional({ type: 'integer', description: 'Only events whose parent is this event' })
  @Optional()
  @IntParam()
  post_parent?: number;

  @ApiPropertyOptional({ type: 'boolean', description: 'Ticket filtering is not available: true is refused' })
  @Optional()
  @StrictBool()
  ticketed?: boolean;
}
