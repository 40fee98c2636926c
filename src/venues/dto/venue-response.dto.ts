import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ImageDto, ITEM_STATUSES } from '../../common/dto/shared-response.dto';

/**
 * Documentation of a venue as spec resources.md §2 gives it. Keys whose value is empty are
 * omitted, except `id`, `show_map`, `show_map_link`, `global_id` and `global_id_lineage`.
 */
@ApiSchema({ name: 'Venue' })
export class VenueDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiPropertyOptional({ pattern: '^[0-9]+$', example: '1', description: 'Id of the author user, as a string of digits' })
  author?: string;
  @ApiProperty({ enum: ITEM_STATUSES, description: 'Publication status (never empty)' }) status: string;
  @ApiPropertyOptional({ description: 'Publication date, site time zone, YYYY-MM-DD HH:MM:SS' }) date?: string;
  @ApiPropertyOptional({ description: 'Publication date, UTC' }) date_utc?: string;
  @ApiPropertyOptional({ description: 'Last modification, site time zone' }) modified?: string;
  @ApiPropertyOptional({ description: 'Last modification, UTC' }) modified_utc?: string;
  @ApiPropertyOptional({ description: 'Public permalink {base_url}/venue/{slug}/' }) url?: string;
  @ApiPropertyOptional({ description: 'Venue name, trimmed' }) venue?: string;
  @ApiPropertyOptional({ description: 'HTML with paragraphs' }) description?: string;
  @ApiPropertyOptional({ description: 'HTML with paragraphs; no write field sets it, so normally absent' }) excerpt?: string;
  @ApiPropertyOptional() slug?: string;
  @ApiPropertyOptional({ type: ImageDto, description: 'Featured image' }) image?: ImageDto;
  @ApiPropertyOptional({ description: 'Street address, raw' }) address?: string;
  @ApiPropertyOptional({ description: 'City, raw' }) city?: string;
  @ApiPropertyOptional({ description: 'Country, raw' }) country?: string;
  @ApiPropertyOptional({ description: 'Province, raw' }) province?: string;
  @ApiPropertyOptional({ description: 'State, raw' }) state?: string;
  @ApiPropertyOptional({ description: 'Postal code, raw' }) zip?: string;
  @ApiPropertyOptional({ description: 'Phone number, raw' }) phone?: string;
  @ApiPropertyOptional({ description: 'Website, raw' }) website?: string;
  @ApiPropertyOptional({ description: 'State or province, raw' }) stateprovince?: string;
  @ApiPropertyOptional({ type: 'number', description: 'Latitude; only with the geo extension and when both coordinates are non-zero' })
  geo_lat?: number;
  @ApiPropertyOptional({ type: 'number', description: 'Longitude; only with the geo extension and when both coordinates are non-zero' })
  geo_lng?: number;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'schema.org Place JSON-LD (no @context); only in single venue reads and inside a single-event response, for items the caller may read',
  })
  json_ld?: Record<string, unknown>;
  @ApiProperty({ description: 'Whether to show a map; default true' }) show_map: boolean;
  @ApiProperty({ description: 'Whether to show a map link; default true' }) show_map_link: boolean;
  @ApiProperty({ description: '{site host}?id={id}' }) global_id: string;
  @ApiProperty({ type: [String], description: 'Exactly [global_id]' }) global_id_lineage: string[];
}

/** Documentation of the `GET /venues` envelope (spec resources.md §8). */
@ApiSchema({ name: 'VenueList' })
export class VenueListDto {
  @ApiProperty({ type: [VenueDto], description: 'The venues of this page; [] when none' }) venues: VenueDto[];
  @ApiProperty({ description: 'URL of this page: {api_root}/venues/?page=…&per_page=… plus supplied filters' }) rest_url: string;
  @ApiPropertyOptional({ description: 'URL of the next page; absent when it would be empty' }) next_rest_url?: string;
  @ApiPropertyOptional({ description: 'URL of the previous page; absent on page 1 or when it would be empty' })
  previous_rest_url?: string;
  @ApiProperty({ type: 'integer', description: 'Number of matching items, ignoring pagination' }) total: number;
  @ApiProperty({ type: 'integer', description: 'ceil(total / per_page); 0 when total is 0' }) total_pages: number;
}
