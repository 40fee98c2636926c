import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** `data` of an error body: the status repeated, and the members some codes add (spec errors.md). */
@ApiSchema({ name: 'ErrorData', description: 'Details of an error. Besides `status`, which members appear depends on `code`.' })
export class ErrorDataDto {
  @ApiProperty({ type: 'integer', description: 'The HTTP status of the answer, repeated', example: 400 })
  status: number;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'array', items: { type: 'string' } },
    ],
    description:
      '`rest_invalid_param`: every invalid parameter, mapped to what is wrong with it. ' +
      '`rest_missing_callback_param`: the names of the missing parameters.',
    example: { per_page: 'Must be a whole number greater than 0.' },
  })
  params?: Record<string, string> | string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`rest_invalid_param`: further details per parameter (may be empty)',
  })
  details?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'integer', description: '`term_exists`: the id of the category or tag that already has this name' })
  term_id?: number;
}

/**
 * The body of every error answer (spec errors.md): one schema, referenced by each documented
 * 4xx/5xx response of /doc.
 */
@ApiSchema({ name: 'Error', description: 'The body of every error answer.' })
export class ErrorResponseDto {
  @ApiProperty({
    type: 'string',
    description: 'Stable machine-readable code of the error; test this rather than the message',
    example: 'rest_invalid_param',
  })
  code: string;

  @ApiProperty({ type: 'string', description: 'What went wrong, for people; the wording may change', example: 'Some parameters are not valid: per_page.' })
  message: string;

  @ApiProperty({ type: () => ErrorDataDto })
  data: ErrorDataDto;
}
