import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Allow } from 'class-validator';
import { dateInputDoc, ID_FORMS, ID_SCHEMA } from '../../common/http/route-docs';
import { isValidTimezone } from '../../common/datetime/zones';
import { PARAM_MESSAGES } from '../../common/errors';
import { ItemWriteDto } from '../../items';
import { CreateOrganizerDto } from '../../organizers';
import { CreateVenueDto } from '../../venues';
import { Check, DateParam, NameList, NameListParam, NonEmptyString, Optional, Required, StrictBool, UrlOrEmpty, FitsColumn } from '../../common/params';
import { EVENT_TEXT } from '../event-text';

const isCost = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));
// No `default` in write bodies: generated clients would make the field required. The default
// applies on create only (an update leaves an omitted flag as it is), so the text says it.
const flagDoc = (description: string) => ({ type: 'boolean', description: `${description} (false when omitted on create)` }) as const;
/** `categories`/`tags`: ids (numbers or digits) or names, as an array or a comma-separated string. */
const termListDoc = (description: string) => ({
  oneOf: [
    { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] }, description: 'Each item is one id or name, never split at commas' },
    { type: 'string', description: 'Comma-separated list, unless the whole string is the name of an existing term' },
  ] satisfies SchemaObject[],
  description,
});
/** `{ "id": N }`: an existing venue or organizer, named inside an object. */
const linkedRef: SchemaObject = { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } };
const emptyString: SchemaObject = { type: 'string', maxLength: 0 };
const LINKED_VENUE: SchemaObject = { oneOf: [...ID_FORMS, linkedRef, { $ref: getSchemaPath(CreateVenueDto) }] };
const LINKED_ORGANIZER: SchemaObject = { oneOf: [...ID_FORMS, linkedRef, { $ref: getSchemaPath(CreateOrganizerDto) }] };

/** The optional write fields of events (spec endpoints.md §4.3). */
@ApiExtraModels(CreateVenueDto, CreateOrganizerDto)
class EventFieldsDto extends ItemWriteDto {
  @ApiPropertyOptional({ type: 'string', description: 'Body text (HTML)' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(EVENT_TEXT, 'description')
  description?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Excerpt (HTML)' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(EVENT_TEXT, 'excerpt')
  excerpt?: string;

  @ApiPropertyOptional({ type: 'string', description: 'IANA time zone or UTC±H[:MM]; empty = site zone' })
  @Optional()
  @Check('timezone', (v) => typeof v === 'string' && (v.trim() === '' || isValidTimezone(v.trim())), PARAM_MESSAGES.timezone)
  timezone?: string;

  @ApiPropertyOptional(flagDoc('All-day event: 00:00:00 to 23:59:59'))
  @Optional()
  @StrictBool()
  all_day?: boolean;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
    description: 'Featured image: the id of a media item (number or digits) or the URL of an image; `0` or `""` removes it',
  })
  @Allow()
  image?: unknown;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } }],
    description: 'Cost: a text or a number, or several of them (the event then shows the range)',
  })
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

  @ApiPropertyOptional(termListDoc('Categories by id or by name (an unknown name creates a category); `[]` or `""` removes all'))
  @Optional()
  @NameListParam()
  categories?: NameList;

  @ApiPropertyOptional(termListDoc('Tags by id or by name (an unknown name creates a tag); `[]` or `""` removes all'))
  @Optional()
  @NameListParam()
  tags?: NameList;

  @ApiPropertyOptional({
    oneOf: [...(LINKED_VENUE.oneOf ?? []), { type: 'array', maxItems: 1, items: LINKED_VENUE }, emptyString],
    description:
      'The venue: its id, `{"id": N}`, or the fields of a new venue (a venue with the same name and description is reused); ' +
      'a one-element array is the same as its element. `0`, `""` or `[]` removes the venue.',
  })
  @Allow()
  venue?: unknown;

  @ApiPropertyOptional({
    oneOf: [
      ...(LINKED_ORGANIZER.oneOf ?? []),
      { type: 'array', items: LINKED_ORGANIZER },
      { type: 'string', pattern: '^\\s*\\d+\\s*(,\\s*\\d+\\s*)+$', description: 'Comma-separated ids' },
      emptyString,
    ],
    description:
      'The organizers, in order: one or an array of ids, `{"id": N}` objects and fields of new organizers ' +
      '(an organizer with the same name and description is reused), or a comma-separated list of ids. ' +
      '`0`, `""` or `[]` removes all organizers.',
  })
  @Allow()
  organizer?: unknown;
}

/** POST /events/{id} (spec endpoints.md §4.8): every field optional. */
export class UpdateEventDto extends EventFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Event title' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(EVENT_TEXT, 'title')
  title?: string;

  @ApiPropertyOptional(dateInputDoc('Start, wall-clock time in `timezone` (or the site zone)'))
  @Optional()
  @DateParam()
  start_date?: string | number;

  @ApiPropertyOptional(dateInputDoc('End; moved to the start when earlier'))
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
  @FitsColumn(EVENT_TEXT, 'title')
  title: string;

  @ApiProperty(dateInputDoc('Start, wall-clock time in `timezone` (or the site zone)'))
  @Required()
  @DateParam()
  start_date: string | number;

  @ApiProperty(dateInputDoc('End; moved to the start when earlier'))
  @Required()
  @DateParam()
  end_date: string | number;
}
