import { ApiPropertyOptional } from '@nestjs/swagger';
import { idListQueryDoc } from '../../common/http/route-docs';
import { ListQueryDto } from '../../common/pagination';
import { IdListParam, IntParam, NonEmptyString, Optional, StrictBool } from '../../common/params';

const ORDERBY = ['id', 'name', 'slug', 'count', 'description', 'term_group', 'include', 'include_slugs'];

/** GET /tags (spec endpoints.md §6.1); categories add `parent`. */
export class ListTermsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ type: 'string', description: 'Only terms whose name or slug contains this text (case-insensitive)' })
  @Optional()
  @NonEmptyString()
  search?: string;

  @ApiPropertyOptional(idListQueryDoc('Leave out these term ids'))
  @Optional()
  @IdListParam({ nonEmpty: true })
  exclude?: number[];

  @ApiPropertyOptional(idListQueryDoc('Only these term ids'))
  @Optional()
  @IdListParam({ nonEmpty: true })
  include?: number[];

  @ApiPropertyOptional({ type: 'string', default: 'asc', description: '"asc" (any case) ascending; any other value descending' })
  @Optional()
  @NonEmptyString()
  order?: string;

  @ApiPropertyOptional({ type: 'string', default: 'name', enum: ORDERBY, description: 'Sort field; unknown values sort by name' })
  @Optional()
  @NonEmptyString()
  orderby?: string;

  @ApiPropertyOptional({ type: 'boolean', default: true, description: 'Only terms used by at least one published event' })
  @Optional()
  @StrictBool()
  hide_empty?: boolean;

  @ApiPropertyOptional({ type: 'integer', description: 'Only terms assigned to this event (hide_empty is then ignored)' })
  @Optional()
  @IntParam()
  post?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Alias of post; wins when both are given' })
  @Optional()
  @IntParam()
  event?: number;

  @ApiPropertyOptional({ type: 'string', description: 'Only the term with exactly this slug' })
  @Optional()
  @NonEmptyString()
  slug?: string;
}

export class ListCategoriesQueryDto extends ListTermsQueryDto {
  @ApiPropertyOptional({ type: 'integer', description: 'Only direct children of this category (0: top-level categories)' })
  @Optional()
  @IntParam({ min: 0 })
  parent?: number;
}
