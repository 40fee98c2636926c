import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError } from './classify-error';

/** Renders every error as the spec's `{code, message, data}` body; bugs are logged, never sent. */
@Catch()
export class WpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    sendError(request, reply, exception);
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, exception: unknown): void {
  const { error, unexpected } = classifyError(exception);
  if (unexpected) request.log.error({ err: exception }, 'unexpected failure while serving the request');
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  void reply.status(error.status).header('content-type', 'application/json; charset=UTF-8').send(JSON.stringify(error.toBody()));
}
