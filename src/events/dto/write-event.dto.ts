import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { isValidTimezone } from '../../common/datetime/zones';
import { PARAM_MESSAGES } from '../../common/errors';
import { ItemWriteDto } from '../../items';
import { Check, DateParam, NonEmptyString, Optional, Required, StrictBool, StringListParam, UrlOrEmpty, FitsColumn } from '../../common/params';

const isCost = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));
const dateDoc = (description: string) => ({ type: 'string', description: `${description} (any format of spec README §6.2)` }) as const;
const flagDoc = (description: string) => ({ type: 'boolean', default: false, description }) as const;
const listDoc = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const;

/** The optional write fields of events (spec endpoints.md §4.3). */
class EventFieldsDto extends ItemWriteDto {
  @ApiPropertyOptional({ type: 'string', description: 'Body text (HTML)' })
  @Optional()
  @NonEmptyString()
  @FitsColumn('event', 'description')
  description?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Excerpt (HTML)' })
  @Optional()
  @NonEmptyString()
  @FitsColumn('event', 'excerpt')
  excerpt?: string;

  @ApiPropertyOptional({ type: 'string', description: 'IANA time zone or UTC±H[:MM]; empty = site zone' })
  @Optional()
  @Check('timezone', (v) => typeof v === 'string' && (v.trim() === '' || isValidTimezone(v.trim())), PARAM_MESSAGES.timezone)
  timezone?: string;

  @ApiPropertyOptional(flagDoc('All-day event: 00:00:00 to 23:59:59'))
  @Optional()
  @StrictBool()
  all_day?: boolean;

  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'integer' }], description: 'Featured image: media id or image URL' })
  @Allow()
  image?: unknown;

  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'Cost text, or several' })
  @Optional()
  @Check('cost', isCost, PARAM_MESSAGES.string)
  cost?: string | number | (string | number)[];

  @ApiPropertyOptional({ type: 'string', description: 'Event website: an absolute URL, or empty' })
  @Optional()
  @UrlOrEmpty()
  website?: string;

  @ApiPropertyOptional(flagDoc('Show a map'))
  @Optional()
  @StrictBool()
  show_map?: boolean;

  @ApiPropertyOptional(flagDoc('Show a map link'))
  @Optional()
  @StrictBool()
  show_map_link?: boolean;

  @ApiPropertyOptional(flagDoc('Keep out of the event list'))
  @Optional()
  @StrictBool()
  hide_from_listings?: boolean;

  @ApiPropertyOptional(flagDoc('Sticky in month view'))
  @Optional()
  @StrictBool()
  sticky?: boolean;

  @ApiPropertyOptional(flagDoc('Featured event'))
  @Optional()
  @StrictBool()
  featured?: boolean;

  @ApiPropertyOptional(listDoc('Category ids or names (names create categories); empty removes all'))
  @Optional()
  @StringListParam()
  categories?: string[];

  @ApiPropertyOptional(listDoc('Tag ids or names (names create tags); empty removes all'))
  @Optional()
  @StringListParam()
  tags?: string[];

  @ApiPropertyOptional({ description: 'Venue: id, {"id": N}, or the data of a new venue; 0, "" or [] removes it' })
  @Allow()
  venue?: unknown;

  @ApiPropertyOptional({ description: 'Organizers: ids, {"id": N} objects or new-organizer data, as an array or comma list; [] removes all' })
  @Allow()
  organizer?: unknown;
}

/** POST /events/{id} (spec endpoints.md §4.8): every field optional. */
export class UpdateEventDto extends EventFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Event title' })
  @Optional()
  @NonEmptyString()
  @FitsColumn('event', 'title')
  title?: string;

  @ApiPropertyOptional(dateDoc('Start, wall-clock time in `timezone` (or the site zone)'))
  @Optional()
  @DateParam()
  start_date?: string | number;

  @ApiPropertyOptional(dateDoc('End; moved to the start when earlier'))
  @Optional()
  @DateParam()
  end_date?: string | number;
}

/**
 * POST /events: title, start_date and end_date are required (spec endpoints.md §4.3). They are
 * declared here and not inherited: an inherited @IsOptional would switch @IsDefined off.
 */
export class CreateEventDto extends EventFieldsDto {
  @ApiProperty({ type: 'string', description: 'Event title' })
  @Required()
  @NonEmptyString()
  @FitsColumn('event', 'title')
  title: string;

  @ApiProperty(dateDoc('Start, wall-clock time in `timezone` (or the site zone)'))
  @Required()
  @DateParam()
  start_date: string | number;

  @ApiProperty(dateDoc('End; moved to the start when earlier'))
  @Required()
  @DateParam()
  end_date: string | number;
}
