import { BadRequestException, NotFoundException } from '@nestjs/common';
import { classifyError } from './classify-error';
import { WpError } from './wp-error';

describe('classifyError', () => {
  it('passes WpError through', () => {
    const err = new WpError('term_exists', 'exists', 400, { term_id: 3 });
    expect(classifyError(err)).toEqual({ error: err, unexpected: false });
  });

  it('maps the router 404 to rest_no_route', () => {
    const { error } = classifyError(new NotFoundException('Cannot GET /x'));
    expect(error.toBody()).toEqual({ code: 'rest_no_route', message: expect.any(String), data: { status: 404 } });
  });

  it('maps body parser failures to rest_invalid_json', () => {
    const fastifyError = Object.assign(new Error('Body is not valid JSON'), { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 });
    expect(classifyError(fastifyError).error.code).toBe('rest_invalid_json');
    const syntax = Object.assign(new SyntaxError('Unexpected token'), { statusCode: 400 });
    expect(classifyError(syntax).error.code).toBe('rest_invalid_json');
  });

  it('maps an oversized body to 413', () => {
    const err = Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(classifyError(err).error.status).toBe(413);
  });

  it('keeps other client errors 4xx', () => {
    expect(classifyError(new BadRequestException()).error.toBody().data.status).toBe(400);
  });

  it('turns anything else into rest_internal_error, flagged for logging, without details', () => {
    const { error, unexpected } = classifyError(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(unexpected).toBe(true);
    expect(error.toBody()).toEqual({ code: 'rest_internal_error', message: 'An unexpected error occurred.', data: { status: 500 } });
  });
});
