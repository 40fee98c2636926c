import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'TermUrls' })
class TermUrlsDto {
  @ApiProperty({ description: '{api_root}/categories/{id} or /tags/{id}' }) self: string;
  @ApiProperty({ description: '{api_root}/categories or /tags' }) collection: string;
  @ApiPropertyOptional({ description: 'The parent category, only when parent is not 0' }) up?: string;
}

/** Documentation of a category or tag as spec resources.md §4 gives it (presented by term.presenter.ts). */
@ApiSchema({ name: 'Term' })
export class TermDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer', description: 'Number of published events carrying the term' }) count: number;
  @ApiProperty() description: string;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ enum: ['category', 'tag'] }) taxonomy: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Categories only; 0 when top-level' }) parent?: number;
  @ApiProperty({ type: 'array', items: {}, description: 'Always empty' }) meta: unknown[];
  @ApiProperty({ description: 'Public permalink' }) url: string;
  @ApiProperty({ type: TermUrlsDto }) urls: TermUrlsDto;
}

export { TermDto as CategoryDto, TermDto as TagDto };

class TermListBase {
  @ApiProperty() rest_url: string;
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) total_pages: number;
  @ApiPropertyOptional() next_rest_url?: string;
  @ApiPropertyOptional() previous_rest_url?: string;
}

@ApiSchema({ name: 'CategoryList' })
export class CategoryListDto extends TermListBase {
  @ApiProperty({ type: [TermDto] }) categories: TermDto[];
}

@ApiSchema({ name: 'TagList' })
export class TagListDto extends TermListBase {
  @ApiProperty({ type: [TermDto] }) tags: TermDto[];
}
