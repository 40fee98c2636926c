import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { idDoc } from '../../common/http/route-docs';
import { IntParam, NonEmptyString, Optional, Required, FitsColumn } from '../../common/params';
import { TERM_TEXT } from '../term-text';

/** Write fields of categories and tags (spec endpoints.md §6.3–§6.4). */
class TermFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Term description' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(TERM_TEXT, 'description')
  description?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Term slug; generated from the name when omitted' })
  @Optional()
  @NonEmptyString()
  slug?: string;
}

export class CreateTermDto extends TermFieldsDto {
  @ApiProperty({ type: 'string', description: 'Term name' })
  @Required()
  @NonEmptyString()
  @FitsColumn(TERM_TEXT, 'name')
  name: string;
}

export class UpdateTermDto extends TermFieldsDto {
  @ApiPropertyOptional({ type: 'string', description: 'Term name' })
  @Optional()
  @NonEmptyString()
  @FitsColumn(TERM_TEXT, 'name')
  name?: string;
}

const parentDoc = idDoc('Parent category id (0: top level)');

export class CreateCategoryDto extends CreateTermDto {
  @ApiPropertyOptional(parentDoc)
  @Optional()
  @IntParam({ min: 0 })
  parent?: number;
}

export class UpdateCategoryDto extends UpdateTermDto {
  @ApiPropertyOptional(parentDoc)
  @Optional()
  @IntParam({ min: 0 })
  parent?: number;
}

/** What the service needs of a write, whichever kind of term. */
export type TermWrite = Partial<CreateCategoryDto>;
