import { BadRequestException } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { QueryValidationPipe } from './query-validation.pipe';

class PageQuery {
  @IsOptional()
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  page?: number;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',') : value))
  @IsString({ each: true })
  tags?: string[];
}

class OtherQuery {
  @IsOptional()
  @IsString()
  page?: string;
}

describe('QueryValidationPipe', () => {
  const pipe = new QueryValidationPipe({ transform: true, whitelist: true });
  const query = (metatype: new () => object) => ({ type: 'query' as const, metatype, data: undefined });

  it('gives the same result for the same query, each caller its own copy', async () => {
    const first = (await pipe.transform({ page: '2', tags: 'a,b' }, query(PageQuery))) as PageQuery;
    expect(first).toBeInstanceOf(PageQuery);
    expect(first).toEqual({ page: 2, tags: ['a', 'b'] });
    first.tags!.push('changed');
    first.page = 99;
    const second = (await pipe.transform({ page: '2', tags: 'a,b' }, query(PageQuery))) as PageQuery;
    expect(second).toBeInstanceOf(PageQuery);
    expect(second).toEqual({ page: 2, tags: ['a', 'b'] });
  });

  it('keeps DTO classes apart', async () => {
    await pipe.transform({ page: '3' }, query(PageQuery));
    expect(await pipe.transform({ page: '3' }, query(OtherQuery))).toEqual({ page: '3' });
  });

  it('rejects an invalid query every time (failures are not remembered)', async () => {
    await expect(pipe.transform({ page: '0' }, query(PageQuery))).rejects.toBeInstanceOf(BadRequestException);
    await expect(pipe.transform({ page: '0' }, query(PageQuery))).rejects.toBeInstanceOf(BadRequestException);
  });

  it('validates bodies as the plain pipe does', async () => {
    await expect(pipe.transform({ page: '0' }, { type: 'body', metatype: PageQuery, data: undefined })).rejects.toBeInstanceOf(BadRequestException);
  });
});
