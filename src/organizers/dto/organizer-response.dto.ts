import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ImageDto, ITEM_STATUSES } from '../../common/dto/shared-response.dto';

/**
 * Documentation of an organizer as spec resources.md §3 gives it. Keys whose value is empty
 * are omitted; only `id`, `status`, `global_id` and `global_id_lineage` are always present.
 */
@ApiSchema({ name: 'Organizer' })
export class OrganizerDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiPropertyOptional({ pattern: '^[0-9]+$', example: '1', description: 'Id of the author user, as a string of digits' })
  author?: string;
  @ApiProperty({ enum: ITEM_STATUSES, description: 'Publication status (never empty)' }) status: string;
  @ApiPropertyOptional({ description: 'Publication date, site time zone, YYYY-MM-DD HH:MM:SS' }) date?: string;
  @ApiPropertyOptional({ description: 'Publication date, UTC' }) date_utc?: string;
  @ApiPropertyOptional({ description: 'Last modification, site time zone' }) modified?: string;
  @ApiPropertyOptional({ description: 'Last modification, UTC' }) modified_utc?: string;
  @ApiPropertyOptional({ description: 'Public permalink {base_url}/organizer/{slug}/' }) url?: string;
  @ApiPropertyOptional({ description: 'Organizer name, trimmed' }) organizer?: string;
  @ApiPropertyOptional({ description: 'HTML with paragraphs' }) description?: string;
  @ApiPropertyOptional({ description: 'HTML with paragraphs' }) excerpt?: string;
  @ApiPropertyOptional() slug?: string;
  @ApiPropertyOptional({ type: ImageDto, description: 'Featured image' }) image?: ImageDto;
  @ApiPropertyOptional({ description: 'Phone number, raw' }) phone?: string;
  @ApiPropertyOptional({ description: 'Website, raw' }) website?: string;
  @ApiPropertyOptional({ description: 'Email address, raw' }) email?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'schema.org Person JSON-LD (no @context); only in single organizer reads and inside a single-event response, for items the caller may read',
  })
  json_ld?: Record<string, unknown>;
  @ApiProperty({ description: '{site host}?id={id}' }) global_id: string;
  @ApiProperty({ type: [String], description: 'Exactly [global_id]' }) global_id_lineage: string[];
}

/** Documentation of the `GET /organizers` envelope (spec resources.md §8). */
@ApiSchema({ name: 'OrganizerList' })
export class OrganizerListDto {
  @ApiProperty({ type: [OrganizerDto], description: 'The organizers of this page; [] when none' }) organizers: OrganizerDto[];
  @ApiProperty({ description: 'URL of this page: {api_root}/organizers/?page=…&per_page=… plus supplied filters' })
  rest_url: string;
  @ApiPropertyOptional({ description: 'URL of the next page; absent when it would be empty' }) next_rest_url?: string;
  @ApiPropertyOptional({ description: 'URL of the previous page; absent on page 1 or when it would be empty' })
  previous_rest_url?: string;
  @ApiProperty({ type: 'integer', description: 'Number of matching items, ignoring pagination' }) total: number;
  @ApiProperty({ type: 'integer', description: 'ceil(total / per_page); 0 when total is 0' }) total_pages: number;
}
