import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from '../common/metrics';

/** `GET /metrics` in Prometheus' text format; registered only with CALENDAR_METRICS=on (else the route does not exist: 404 rest_no_route). */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  @Header('cache-control', 'no-store')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.metrics.exposition();
    reply.header('content-type', contentType);
    return body;
  }
}
