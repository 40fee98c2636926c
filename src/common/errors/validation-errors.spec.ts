import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IdListParam, IntParam, NonEmptyString, Optional, Required, StrictBool } from '../params';
import { toWpValidationError } from './validation-errors';

class SampleDto {
  @Required() @NonEmptyString() title: string;
  @Optional() @IntParam() page?: number;
  @Optional() @IntParam({ clamp: 50 }) per_page?: number;
  @Optional() @StrictBool() featured?: boolean;
  @Optional() @IdListParam() venue?: number[];
  @Required() @NonEmptyString() start_date: string;
}

async function errorFor(input: Record<string, unknown>) {
  const dto = plainToInstance(SampleDto, input);
  const errors = await validate(dto, { stopAtFirstError: true, whitelist: true });
  return { dto, error: errors.length ? toWpValidationError(errors).toBody() : null };
}

describe('toWpValidationError (spec errors.md)', () => {
  it('reports every missing required parameter as an array, before any invalid one', async () => {
    const { error } = await errorFor({ page: 'foo' });
    expect(error).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Required parameters are missing: title, start_date.',
      data: { status: 400, params: ['title', 'start_date'] },
    });
  });

  it('reports every invalid parameter in declaration order with its message', async () => {
    const { error } = await errorFor({ title: '', start_date: 'x', page: '0', per_page: 'foo', featured: 'maybe', venue: '1,a' });
    expect(error?.code).toBe('rest_invalid_param');
    expect(error?.message).toBe('Some parameters are not valid: title, page, per_page, featured, venue.');
    expect(error?.data).toEqual({
      status: 400,
      params: {
        title: 'Must be a non-empty text value.',
        page: 'Must be a whole number greater than 0.',
        per_page: 'Must be a whole number greater than 0.',
        featured: 'Must be true or false.',
        venue: 'Must be a list of whole numbers greater than 0.',
      },
      details: {},
    });
  });

  it('accepts lenient forms and clamps per_page', async () => {
    const { dto, error } = await errorFor({ title: 'T', start_date: 'now', page: '3.0', per_page: '500', featured: '1', venue: ['1', '2'] });
    expect(error).toBeNull();
    expect(dto).toMatchObject({ page: 3, per_page: 50, featured: true, venue: [1, 2] });
  });

  it('treats null as absent', async () => {
    const { error } = await errorFor({ title: null, start_date: 'now' });
    expect(error?.code).toBe('rest_missing_callback_param');
  });
});
