import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { CostDetailsDto, DateDetailsDto, ImageDto, ITEM_STATUSES } from '../../common/dto/shared-response.dto';
import { OrganizerDto } from '../../organizers';
import { TermDto } from '../../taxonomies';
import { VenueDto } from '../../venues';

/**
 * Documentation of an event as spec resources.md §1 gives it. Every key is always present
 * except `json_ld`.
 */
@ApiSchema({ name: 'Event' })
@ApiExtraModels(ImageDto, VenueDto)
export class EventDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ description: '{site host}?id={id}' }) global_id: string;
  @ApiProperty({ type: [String], description: 'Exactly [global_id]' }) global_id_lineage: string[];
  @ApiProperty({ pattern: '^[0-9]+$', example: '1', description: 'Id of the author user, as a string of digits' })
  author: string;
  @ApiProperty({ enum: ITEM_STATUSES, description: 'Publication status' }) status: string;
  @ApiProperty({ description: 'Publication date, site time zone, YYYY-MM-DD HH:MM:SS' }) date: string;
  @ApiProperty({ description: 'Publication date, UTC' }) date_utc: string;
  @ApiProperty({ description: 'Last modification, site time zone' }) modified: string;
  @ApiProperty({ description: 'Last modification, UTC' }) modified_utc: string;
  @ApiProperty({ description: 'Public permalink {base_url}/event/{slug}/' }) url: string;
  @ApiProperty({ description: '{api_root}/events/{id}, no trailing slash' }) rest_url: string;
  @ApiProperty({ description: 'Trimmed title' }) title: string;
  @ApiProperty({ description: 'HTML with paragraphs; "" if empty' }) description: string;
  @ApiProperty({ description: 'HTML with paragraphs; "" if empty' }) excerpt: string;
  @ApiProperty() slug: string;
  @ApiProperty({
    oneOf: [{ type: 'boolean', enum: [false] }, { $ref: getSchemaPath(ImageDto) }],
    description: 'Featured image, or false when there is none',
  })
  image: false | ImageDto;
  @ApiProperty({ description: 'Whether the event lasts all day' }) all_day: boolean;
  @ApiProperty({ description: 'Wall-clock start in the event time zone, YYYY-MM-DD HH:MM:SS' }) start_date: string;
  @ApiProperty({ type: DateDetailsDto, description: 'Parts of start_date' }) start_date_details: DateDetailsDto;
  @ApiProperty({ description: 'Wall-clock end in the event time zone' }) end_date: string;
  @ApiProperty({ type: DateDetailsDto, description: 'Parts of end_date' }) end_date_details: DateDetailsDto;
  @ApiProperty({ description: 'Start in UTC' }) utc_start_date: string;
  @ApiProperty({ type: DateDetailsDto, description: 'Parts of utc_start_date' }) utc_start_date_details: DateDetailsDto;
  @ApiProperty({ description: 'End in UTC' }) utc_end_date: string;
  @ApiProperty({ type: DateDetailsDto, description: 'Parts of utc_end_date' }) utc_end_date_details: DateDetailsDto;
  @ApiProperty({ description: 'IANA zone name or UTC±H[:MM]' }) timezone: string;
  @ApiProperty({ description: 'Abbreviation of the zone at the start, e.g. EDT' }) timezone_abbr: string;
  @ApiProperty({ description: 'Formatted cost (e.g. $15, Free – 30$); "" when no cost' }) cost: string;
  @ApiProperty({ type: CostDetailsDto, description: 'Parts of the cost' }) cost_details: CostDetailsDto;
  @ApiProperty({ description: 'The event website if set, otherwise the public url' }) website: string;
  @ApiProperty({ description: 'Whether to show a map' }) show_map: boolean;
  @ApiProperty({ description: 'Whether to show a map link' }) show_map_link: boolean;
  @ApiProperty({ description: 'Whether the event is hidden from listings' }) hide_from_listings: boolean;
  @ApiProperty({ description: 'Whether the event is sticky' }) sticky: boolean;
  @ApiProperty({ description: 'Whether the event is featured' }) featured: boolean;
  @ApiProperty({ type: [TermDto], description: 'Categories, by name (case-insensitive) then id; [] when none' })
  categories: TermDto[];
  @ApiProperty({ type: [TermDto], description: 'Tags, by name (case-insensitive) then id; [] when none' }) tags: TermDto[];
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(VenueDto) }, { type: 'array', items: {}, maxItems: 0 }],
    description: 'The linked venue embedded (even if not visible to the caller), or an empty array when there is none',
  })
  venue: VenueDto | [];
  @ApiProperty({ type: [OrganizerDto], description: 'Linked organizers embedded, in link order; [] when none' })
  organizer: OrganizerDto[];
  @ApiProperty({ type: 'array', items: {}, maxItems: 0, description: 'Always empty (additional fields are not supported)' })
  custom_fields: unknown[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'schema.org Event JSON-LD; only in GET /events/{id} and /events/by-slug/{slug}, for events the caller may read',
  })
  json_ld?: Record<string, unknown>;
}

/** Documentation of the `GET /events` envelope (spec resources.md §8). */
@ApiSchema({ name: 'EventList' })
export class EventListDto {
  @ApiProperty({ type: [EventDto], description: 'The events of this page, without json_ld; [] when none' }) events: EventDto[];
  @ApiProperty({
    description: 'URL of this page: {api_root}/events/?page, per_page, effective start_date/end_date and supplied filters',
  })
  rest_url: string;
  @ApiPropertyOptional({ description: 'URL of the next page; absent when it would be empty' }) next_rest_url?: string;
  @ApiPropertyOptional({ description: 'URL of the previous page; absent on page 1 or when it would be empty' })
  previous_rest_url?: string;
  @ApiProperty({ type: 'integer', description: 'Number of matching items, ignoring pagination' }) total: number;
  @ApiProperty({ type: 'integer', description: 'ceil(total / per_page); 0 when total is 0' }) total_pages: number;
}
