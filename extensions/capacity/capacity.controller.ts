import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { API_NAMESPACE, code, CurrentActor, ExtensionRouteDocs, EventReader, NamedCache, PathId, ReadModel } from '../../src/extend';
import type { Actor } from '../../src/extend';
import { CapacityRepository } from './capacity.repository';

/** The answer of GET /events/{id}/capacity. */
export interface CapacityAnswer {
  id: number;
  capacity: number | null;
}

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
    private readonly repository: CapacityRepository,
    private readonly readModel: ReadModel,
  ) {
    this.answers = readModel.cache<CapacityAnswer>(ANSWERS_CACHE);
  }

  async read(actor: Actor | null, id: number): Promise<CapacityAnswer> {
    await this.events.getById(actor, id);
    await this.readModel.snapshot();
    return this.answers.through(String(id), async () => ({ id, capacity: await this.repository.capacityOf(id) }));
  }
}

@ApiTags('events')
@Controller(`${API_NAMESPACE}/events`)
export class CapacityController {
  constructor(private readonly reader: CapacityReader) {}

  @Get(':id/capacity')
  @ExtensionRouteDocs({
    text: {
      summary: "An event's capacity",
      description:
        'How many people the event takes (null: not set). Anyone who may read the event may read it; otherwise the answer is that of GET /events/{id}.',
    },
    role: 'read',
    path: 'id',
    answer: {
      description: "The event's capacity",
      schema: {
        type: 'object',
        required: ['id', 'capacity'],
        properties: { id: { type: 'integer' }, capacity: { type: 'integer', nullable: true, minimum: 0, maximum: 100000 } },
      },
    },
    errors: {
      400: [code('rest-invalid-event-id', 'the id exists but is not an event')],
      403: [code('event-not-accessible', 'the event is not published and you may not read it'), code('event-no-longer-available', 'the event is in the trash')],
      404: [code('rest-event-not-found', 'no event has this id')],
    },
  })
  read(@CurrentActor() actor: Actor | null, @PathId() id: number): Promise<CapacityAnswer> {
    return this.reader.read(actor, id);
  }
}
