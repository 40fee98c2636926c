import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../src/common/auth';
import { NamedCache, ReadModel } from '../../src/common/cache/read-model';
import { CurrentActor, PathId } from '../../src/common/http/request-context';
import { API_NAMESPACE } from '../../src/config/app-config';
import { EventReader } from '../../src/events';
import { CapacityStore } from './capacity.store';

/** The answer of GET /events/{id}/capacity. */
export interface CapacityAnswer {
  id: number;
  capacity: number | null;
}

/** The body of an error answer (errors.md): a code, a message and the HTTP status. */
const ERROR_BODY = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } },
  },
};

/** The module's named cache (its share is declared by CAPACITY_FEATURE). */
export const ANSWERS_CACHE = 'capacity.answers';

/**
 * An event's capacity on a route of its own. Whoever may read the event may read it: the
 * events feature's reader answers its 401/403/404 first. The answer does not depend on the
 * caller, so it is kept in the module's cache by event id; every write's unit of work empties it.
 */
@Injectable()
export class CapacityReader {
  private readonly answers: NamedCache<CapacityAnswer>;

  constructor(
    private readonly events: EventReader,
    private readonly store: CapacityStore,
    private readonly readModel: ReadModel,
  ) {
    this.answers = readModel.cache<CapacityAnswer>(ANSWERS_CACHE);
  }

  async read(actor: Actor | null, id: number): Promise<CapacityAnswer> {
    await this.events.getById(actor, id);
    await this.readModel.snapshot();
    return this.answers.through(String(id), async () => ({ id, capacity: await this.store.capacityOf(id) }));
  }
}

@ApiTags('events')
@Controller(`${API_NAMESPACE}/events`)
export class CapacityController {
  constructor(private readonly reader: CapacityReader) {}

  @Get(':id/capacity')
  // Anyone may ask (no credentials), or a user with Basic credentials: both security schemes.
  @ApiSecurity({})
  @ApiSecurity('basicAuth')
  @ApiParam({ name: 'id', schema: { type: 'integer', minimum: 1 }, description: "The event's id" })
  @ApiOperation({
    summary: "An event's capacity",
    description:
      'How many people the event takes (null: not set). Anyone who may read the event may read it; otherwise the answer is that of GET /events/{id}.',
  })
  @ApiOkResponse({
    description: "The event's capacity",
    schema: {
      type: 'object',
      required: ['id', 'capacity'],
      properties: { id: { type: 'integer' }, capacity: { type: 'integer', nullable: true, minimum: 0, maximum: 100000 } },
    },
  })
  @ApiResponse({ status: 401, description: 'Bad credentials', schema: ERROR_BODY })
  @ApiResponse({ status: 403, description: 'The event is not one the caller may read', schema: ERROR_BODY })
  @ApiResponse({ status: 404, description: 'No such event', schema: ERROR_BODY })
  read(@CurrentActor() actor: Actor | null, @PathId() id: number): Promise<CapacityAnswer> {
    return this.reader.read(actor, id);
  }
}
