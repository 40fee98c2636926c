import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/auth';
import { CurrentActor } from '../common/http/request-context';
import { ChangesDocs } from '../common/http/route-docs';
import { API_NAMESPACE } from '../config/app-config';
import { ChangesService, SYNC_TYPES, SyncType } from './changes.service';
import { ChangesDto, ChangesQueryDto } from './dto/changes.dto';

@ApiTags('sync')
@Controller(API_NAMESPACE)
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('changes')
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
  list(@CurrentActor() actor: Actor | null, @Query() q: ChangesQueryDto) {
    return this.changes.changes(actor, {
      since: q.since,
      perPage: q.per_page ?? 100,
      types: (q.types as SyncType[] | undefined) ?? (Object.keys(SYNC_TYPES) as SyncType[]),
      embed: q.embed === true,
    });
  }
}
