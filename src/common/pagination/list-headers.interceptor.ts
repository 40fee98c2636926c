import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import { JsonText, ListPage } from './list-page';

/** Unwraps ListPage results (the body goes out, the totals become X-TEC-* headers) and pre-serialised JsonText bodies. */
@Injectable()
export class ListHeadersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        const reply = context.switchToHttp().getResponse<FastifyReply>();
        if (result instanceof JsonText) {
          void reply.header('content-type', 'application/json; charset=UTF-8');
          return result.text;
        }
        if (!(result instanceof ListPage)) return result;
        void reply.header('X-TEC-Total', String(result.total)).header('X-TEC-TotalPages', String(result.totalPages));
        if (result.body instanceof JsonText) {
          void reply.header('content-type', 'application/json; charset=UTF-8');
          return result.body.text;
        }
        return result.body;
      }),
    );
  }
}
