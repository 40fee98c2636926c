import { Controller, Get, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { ListFields } from '../common/http/fields-routes';
import { CurrentActor } from '../common/http/request-context';
import { keepFromSecondAsk } from '../common/http/response-cache';
import { ChangesDocs } from './sync-route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ChangesService } from './changes.service';
import { ChangesDto, ChangesQueryDto } from './dto/changes.dto';

@ApiTags('sync')
@Controller(API_NAMESPACE)
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('changes')
  @ListFields('changes')
  @ChangesDocs(
    {
      summary: 'What changed since a token',
      description:
        'The change feed: one entry per item that changed after `since`, the latest change only, in commit order. ' +
        '`upsert` for an item you can read now; `delete` for one removed, trashed or no longer visible to you. ' +
        'Keep `next_sync_token` and pass it as `since` next time; `has_more` means call again at once.',
    },
    ChangesDto,
  )
  async list(@CurrentActor() actor: Actor | null, @Query() q: ChangesQueryDto, @Req() request: FastifyRequest) {
    const page = await this.changes.changes(actor, {
      since: q.since,
      perPage: q.per_page ?? 100,
      types: this.changes.checkTypes(q.types),
      embed: q.embed === true,
    });
    // An anonymous page is kept for the clients that ask the same URL (response-cache.ts): those
    // at the end of the log do, all with the same token, and so do those starting without one.
    // A page on the way there from a token is often one client's own, asked once: it is kept
    // only when asked again (docs/performance.md).
    if (page.hasMore && q.since !== undefined) keepFromSecondAsk(request);
    return page.body;
  }
}
