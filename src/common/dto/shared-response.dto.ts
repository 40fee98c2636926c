import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';

/** Statuses an event, venue or organizer can have (spec endpoints.md, status table). */
export const ITEM_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

/** Documentation of one resized variant inside an image's `sizes` (spec resources.md §5). */
@ApiSchema({ name: 'ImageSize' })
export class ImageSizeDto {
  @ApiProperty({ type: 'integer', description: 'Width of the variant in pixels' }) width: number;
  @ApiProperty({ type: 'integer', description: 'Height of the variant in pixels' }) height: number;
  @ApiProperty({ description: 'MIME type of the variant, e.g. image/jpeg' }) 'mime-type': string;
  @ApiProperty({ description: 'URL of the variant' }) url: string;
}

/**
 * Documentation of a featured image (spec resources.md §5). The service does not resize, so
 * normally only `url`, `id` and `extension` are present.
 */
@ApiSchema({ name: 'Image' })
@ApiExtraModels(ImageSizeDto)
export class ImageDto {
  @ApiProperty({ description: 'Full-size image URL' }) url: string;
  @ApiProperty({ type: 'integer', description: 'Media item id (from the post id sequence)' }) id: number;
  @ApiProperty({ description: 'Lower-case file extension of the URL path, without dot (jpg, png)' }) extension: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Width in pixels, only when known' }) width?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Height in pixels, only when known' }) height?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'File size in bytes, only when known' }) filesize?: number;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ImageSizeDto) },
    description: 'Resized variants keyed by size name (thumbnail, medium, …), only when any exist',
  })
  sizes?: Record<string, ImageSizeDto>;
}

/** Documentation of a date split into zero-padded string parts (spec resources.md §1 DateDetails). */
@ApiSchema({ name: 'DateDetails' })
export class DateDetailsDto {
  @ApiProperty({ description: 'Four-digit year', example: '2025' }) year: string;
  @ApiProperty({ description: 'Zero-padded month, 01–12', example: '03' }) month: string;
  @ApiProperty({ description: 'Zero-padded day of month', example: '14' }) day: string;
  @ApiProperty({ description: 'Zero-padded hour, 00–23', example: '09' }) hour: string;
  @ApiProperty({ description: 'Zero-padded minutes', example: '30' }) minutes: string;
  @ApiProperty({ description: 'Zero-padded seconds', example: '00' }) seconds: string;
}

/** Documentation of an event's `cost_details` (spec resources.md §6). */
@ApiSchema({ name: 'CostDetails' })
export class CostDetailsDto {
  @ApiProperty({ description: 'Currency symbol shared by every cost string; "" when they differ or there is no cost' })
  currency_symbol: string;
  @ApiProperty({ description: 'Always "" (no write field sets it)' }) currency_code: string;
  @ApiProperty({ enum: ['prefix', 'postfix', ''], description: 'Side of the number the symbol goes on; "" without a symbol' })
  currency_position: string;
  @ApiProperty({
    type: [String],
    description: 'Numbers found in the cost as strings with "." decimals, ascending and unique (non-numeric text as is); [] when no cost',
  })
  values: string[];
}
