import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readiness, ReadinessService } from './readiness.service';

/**
 * `GET /healthz` and `GET /readyz` at {base_url}, outside the API namespace (sync.md
 * "Operations"). Not in the API's OpenAPI document: they are for load balancers and
 * orchestrators, not API clients (the README lists them).
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: the process serves requests. Checks nothing else, so a slow database never gets it restarted. */
  @Get('healthz')
  @Header('cache-control', 'no-store')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 when every check is up, else 503 with the same shape naming the failing check. */
  @Get('readyz')
  @Header('cache-control', 'no-store')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const result = await this.readiness.check();
    reply.status(result.status === 'ok' ? 200 : 503);
    return result;
  }
}
