import { ApiPropertyOptional } from '@nestjs/swagger';
import { IntParam, Optional } from '../params';

export const MAX_PER_PAGE = 50;

/** page/per_page of every list (spec endpoints.md: per_page above 50 is clamped, not an error). */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', default: 1, minimum: 1, description: 'Page of the collection' })
  @Optional()
  @IntParam()
  page?: number;

  @ApiPropertyOptional({ type: 'integer', default: 10, minimum: 1, maximum: MAX_PER_PAGE, description: 'Items per page; values above 50 are clamped to 50' })
  @Optional()
  @IntParam({ clamp: MAX_PER_PAGE })
  per_page?: number;
}
