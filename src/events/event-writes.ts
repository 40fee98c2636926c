import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { Actor } from '../common/auth';
import { toWpValidationError } from '../common/errors';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { CreateEventDto, UpdateEventDto } from './dto/write-event.dto';
import type { EventEntity } from './entities/event.entity';
import { EventDeleter } from './event-deleter';
import { EXTENSION_ORIGIN, type EventWriteOrigin } from './event-write-origin';
import { EventWriter } from './event-writer';

type Json = Record<string, unknown>;

/**
 * Writes of events inside a running unit of work (a hook's, an extension's), under the same
 * rules as the routes' writes: the same checks, rights of `actor`, slugs, links, change rows
 * and hooks (whose `saved`/`deleting` run for these writes too, told the `origin` the caller
 * gives: `extension` when none, `series` for a series' occurrences). Errors are the routes' errors.
 */
export abstract class EventWrites {
  abstract create(tx: Tx, changes: ChangeSet, actor: Actor | null, input: Json, origin?: EventWriteOrigin): Promise<EventEntity>;
  /**
   * As many creates in a row, with the same rows, links, change records, errors and `saved`
   * hooks (in the list's order, after every row and link is written), in far fewer statements
   * when the inputs share their author, venue, organizers, image and terms (a series'
   * occurrences). Answers the rows in the order of `inputs`.
   */
  abstract createMany(tx: Tx, changes: ChangeSet, actor: Actor | null, inputs: Json[], origin?: EventWriteOrigin): Promise<EventEntity[]>;
  abstract update(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, input: Json, origin?: EventWriteOrigin): Promise<EventEntity>;
  /** To the trash (`force` false) or for good. */
  abstract remove(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, force: boolean, input?: Json, origin?: EventWriteOrigin): Promise<void>;
}

/**
 * Writes of events inside a running unit of work (EventWrites, extending.md §1 "write hooks"):
 * the input is validated against the routes' DTOs as the global pipe validates a request
 * (unknown parameters dropped for the core, kept for the hooks), then the write pipeline
 * and the deleter do what the routes do, in the caller's transaction and change set, with the
 * origin the caller gives (`extension` when none). Answers are the
 * stored rows, not representations: presenting reads the outer connection, which a write may
 * not, and a caller making a hundred occurrences does not want them presented.
 */
@Injectable()
export class EventWritesInTx extends EventWrites {
  constructor(
    private readonly writer: EventWriter,
    private readonly deleter: EventDeleter,
  ) {
    super();
  }

  create(tx: Tx, changes: ChangeSet, actor: Actor | null, input: Json, origin: EventWriteOrigin = EXTENSION_ORIGIN): Promise<EventEntity> {
    return this.writer.createIn(tx, changes, actor, validated(CreateEventDto, input), given(input), origin);
  }

  async createMany(tx: Tx, changes: ChangeSet, actor: Actor | null, inputs: Json[], origin: EventWriteOrigin = EXTENSION_ORIGIN): Promise<EventEntity[]> {
    const writes: { dto: CreateEventDto; raw: Json }[] = [];
    for (const input of inputs) {
      try {
        writes.push({ dto: validated(CreateEventDto, input), raw: given(input) });
      } catch {
        // A bad input: one create after another refuses the list where and as `create` would.
        const created: EventEntity[] = [];
        for (const each of inputs) created.push(await this.create(tx, changes, actor, each, origin));
        return created;
      }
    }
    return this.writer.createManyIn(tx, changes, actor, writes, origin);
  }

  update(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, input: Json, origin: EventWriteOrigin = EXTENSION_ORIGIN): Promise<EventEntity> {
    return this.writer.updateIn(tx, changes, actor, id, validated(UpdateEventDto, input), given(input), origin);
  }

  remove(
    tx: Tx,
    changes: ChangeSet,
    actor: Actor | null,
    id: number,
    force: boolean,
    input: Json = {},
    origin: EventWriteOrigin = EXTENSION_ORIGIN,
  ): Promise<void> {
    return this.deleter.removeIn(tx, changes, actor, id, force, given(input), origin);
  }
}

/** As a route gives its raw parameters to the extensions (RawInput): `undefined` is not given, a `null` is kept (an extension's "clear"). */
function given(input: Json): Json {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

/** A write's input as the create or update route's DTO, checked as that route checks it, with the parameters it keeps for the extensions. */
export function validatedEventInput(create: boolean, input: Json): { dto: UpdateEventDto; raw: Json } {
  return { dto: create ? validated(CreateEventDto, input) : validated(UpdateEventDto, input), raw: given(input) };
}

/** The input as the route's DTO, checked as the global ValidationPipe checks a request (app.setup.ts). */
function validated<T extends object>(dto: new () => T, input: Json): T {
  const value = plainToInstance(dto, given(input));
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: false, stopAtFirstError: true });
  if (errors.length > 0) throw toWpValidationError(errors);
  return value;
}
