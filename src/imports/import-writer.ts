import { Injectable, Optional } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { Actor } from '../common/auth';
import { toWpValidationError, WpError } from '../common/errors';
import type { Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import type { WriteParticipant } from '../database/write-participants';
import { CreateEventDto, EventDeleter, EventsRepository, UpdateEventDto } from '../events';
import { CreateOrganizerDto, UpdateOrganizerDto } from '../organizers';
import { CreateCategoryDto, CreateTermDto, TermsService, TERM_EXISTS, UpdateCategoryDto, UpdateTermDto } from '../taxonomies';
import { UsersService } from '../users';
import { CreateVenueDto, UpdateVenueDto } from '../venues';
import type { ImportKind } from './imported-record.entity';
import { ImportedRecordsRepository } from './imported-records.repository';
import { LocalRecords } from './local-records';

type Input = Record<string, unknown>;
type DtoClass = new () => object;

/** One source record: where it comes from, its key there, and its version (null: always written). */
export interface ImportTarget {
  source: string;
  kind: ImportKind;
  key: string;
  version: string | null;
}

/** `kept_local`: changed at the source, but changed here since it was written, and kept (sources.md §2 `keep_local_edits`). */
export type ImportResult = 'created' | 'updated' | 'unchanged' | 'kept_local';

/**
 * A source's run in each of its writes (sources.md §3–4): whether a record edited here is kept,
 * and what the run wrote or found, recorded in the write's own transaction where there is one.
 */
export interface ImportSession {
  /** True: the local record was changed since this source wrote it, and stays as it is. */
  keepsLocal(kind: ImportKind, localId: number): Promise<boolean>;
  /** The record is the source's (written now inside `tx`, or found unchanged with `tx` null). */
  holds(tx: Tx | null, kind: ImportKind, key: string, localId: number): Promise<void>;
}

export interface ImportOutcome {
  result: ImportResult;
  /** The local id (0 in a dry run of a create). */
  localId: number;
}

export interface ImportWriteOptions {
  /**
   * Import-only (no route can set it): the local record's `modified_utc` becomes this UTC
   * `YYYY-MM-DD HH:MM:SS` instead of the time of the write, so that it reads as the source's.
   */
  modifiedUtc?: string;
  /** Write even when the mapping says the source version was written already. */
  force?: boolean;
  /** Decide created/updated/unchanged, write nothing. */
  dryRun?: boolean;
  /** The status of a record this write creates; an update leaves the local status as it is. */
  createStatus?: string;
  session?: ImportSession;
}

/**
 * The mapping version of a category or tag that an origin found here under its name (sources.md
 * §4: matched by name before one is created): the origin maps to it but never writes it, so
 * several origins share one term and none overwrites another's.
 */
export const ADOPTED = 'adopted';

/** A source record the service refused (bad input, a rule): its message is the service's. */
export class ImportRecordError extends Error {}

/** The create and update DTOs of each kind: the bodies the routes validate, validated the same way. */
const DTOS: Record<ImportKind, { create: DtoClass; update: DtoClass }> = {
  event: { create: CreateEventDto, update: UpdateEventDto },
  venue: { create: CreateVenueDto, update: UpdateVenueDto },
  organizer: { create: CreateOrganizerDto, update: UpdateOrganizerDto },
  category: { create: CreateCategoryDto, update: UpdateCategoryDto },
  tag: { create: CreateTermDto, update: UpdateTermDto },
};

/**
 * The importers' one way to write (src/imports): API-shaped input (the field names of the
 * create/update bodies), validated by the routes' DTO classes with the routes' options, written
 * by the services the routes call (LocalRecords), and the source → local mapping recorded in
 * the same transaction as the record. A record the service refuses becomes an
 * ImportRecordError with the service's message. Also what the importers ask of the local data:
 * the importing user, an event's start, a term by name, and an event moved to the trash.
 */
@Injectable()
export class ImportWriter {
  constructor(
    private readonly local: LocalRecords,
    private readonly records: ImportedRecordsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersService,
    private readonly terms: TermsService,
    private readonly events: EventsRepository,
    /** Always there in the app's contexts (EventsModule exports it); optional for callers that only write. */
    @Optional() private readonly deleter?: EventDeleter,
  ) {}

  /** The user `login` names, or null when there is none. */
  async userByLogin(login: string): Promise<Actor | null> {
    const user = await this.users.findByLogin(login);
    return user && { id: user.id, login: user.login, role: user.role };
  }

  /**
   * The importing user: the one `login` names (an error when unknown), else the first
   * administrator (lowest id). Imports write as a user, so that the routes' rules apply.
   */
  async importingUser(login?: string): Promise<Actor> {
    if (login !== undefined) {
      const named = await this.userByLogin(login);
      if (!named) throw new ImportRecordError(`No user has the login "${login}".`);
      return named;
    }
    const admin = (await this.users.list()).filter((u) => u.role === 'administrator').sort((a, b) => a.id - b.id)[0];
    if (!admin) throw new ImportRecordError('There is no administrator to import as; create one (user:create LOGIN --role administrator) or name a user.');
    return { id: admin.id, login: admin.login, role: 'administrator' };
  }

  /** The local id a source record was mapped to, if any (whether or not that record still exists). */
  async mapped(target: Omit<ImportTarget, 'version'>): Promise<number | null> {
    return (await this.records.find(target.source, target.kind, target.key))?.localId ?? null;
  }

  /**
   * Creates the record, or updates the one it was imported as before (unchanged when the
   * mapping has this version already). A mapped record that was deleted locally is created
   * again and the mapping moves to it.
   */
  async put(actor: Actor, target: ImportTarget, input: Input, opts: ImportWriteOptions = {}): Promise<ImportOutcome> {
    const known = await this.records.find(target.source, target.kind, target.key);
    const alive = known !== null && (await this.local.exists(target.kind, known.localId));
    if (alive && (known.version === ADOPTED || (!opts.force && target.version !== null && known.version === target.version))) {
      if (!opts.dryRun) await opts.session?.holds(null, target.kind, target.key, known.localId);
      return { result: 'unchanged', localId: known.localId };
    }
    if (alive && (await opts.session?.keepsLocal(target.kind, known.localId))) {
      if (!opts.dryRun) await opts.session?.holds(null, target.kind, target.key, known.localId);
      return { result: 'kept_local', localId: known.localId };
    }
    const result: ImportResult = alive ? 'updated' : 'created';
    const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
    if (opts.createStatus !== undefined) {
      // A record in the trash that the source has again comes back as a new one would.
      if (alive && !(await this.local.inTrash(target.kind, known.localId))) delete given.status;
      else given.status = opts.createStatus;
    }
    const dto = this.validated(alive ? DTOS[target.kind].update : DTOS[target.kind].create, given);
    if (opts.dryRun) return { result, localId: alive ? known.localId : 0 };

    let localId = 0;
    // The write's bookkeeping, declared for it: the source → local mapping in the record's own transaction.
    const bookkeeping: WriteParticipant = {
      written: async (tx, written) => {
        localId = idOf(written);
        await this.records.remember(tx, target.source, target.kind, target.key, localId, target.version);
        if (opts.modifiedUtc !== undefined) await this.local.setModifiedUtc(target.kind, localId, opts.modifiedUtc, tx);
        await opts.session?.holds(tx, target.kind, target.key, localId);
      },
    };
    const write = () =>
      alive
        ? this.local.update(actor, target.kind, known.localId, dto, given, [bookkeeping])
        : this.local.create(actor, target.kind, dto, given, [bookkeeping]);
    const namesake = await this.refused(() =>
      write().then(
        () => null,
        (err: unknown) => {
          const existing = alive ? null : namesakeOf(err);
          if (existing === null) throw err;
          return existing;
        },
      ),
    );
    if (namesake !== null) {
      await this.unitOfWork.runUnlogged((tx) => this.records.remember(tx, target.source, target.kind, target.key, namesake, ADOPTED));
      return { result: 'unchanged', localId: namesake };
    }
    return { result, localId };
  }

  /**
   * Maps a source record to an existing local one without writing it (an overridden occurrence of
   * a series to the occurrence the series made): the next put updates that record. No version,
   * so that put is never `unchanged`.
   */
  async adopt(target: Omit<ImportTarget, 'version'>, localId: number): Promise<void> {
    await this.unitOfWork.runUnlogged((tx) => this.records.remember(tx, target.source, target.kind, target.key, localId, null));
  }

  /**
   * Moves an event to the trash as `DELETE /events/{id}` does, as `actor` (an import's copy that
   * another event now stands for); one already in the trash, or gone, is left as it is.
   */
  async trashEvent(actor: Actor, id: number): Promise<void> {
    const row = await this.events.findById(id);
    if (!row || row.status === 'trash') return;
    const deleter = this.deleter;
    if (!deleter) throw new Error('ImportWriter was made without the EventDeleter it trashes with.');
    await this.refused(() => deleter.removeById(actor, id, false, undefined, {}, { kind: 'import', participants: [] }));
  }

  /** An event's start (wall time and UTC, `YYYY-MM-DD HH:MM:SS`), or null when there is no such event. */
  async eventStart(id: number): Promise<{ wall: string; utc: string } | null> {
    const row = await this.events.findById(id);
    return row && { wall: row.startDate, utc: row.startDateUtc };
  }

  /** The category or tag this name finds (by slug, id or name, as list filters resolve them), or null. Reads only. */
  async findTerm(taxonomy: 'category' | 'tag', name: string): Promise<number | null> {
    return (await this.terms.resolveFilter(taxonomy, { items: [name] }))?.[0] ?? null;
  }

  /**
   * Forgets the version written of a source record, so that the next put writes it whatever its
   * version (a copy trashed because its source no longer had it, should the source have it again).
   */
  async forgetVersion(target: Omit<ImportTarget, 'version'>): Promise<void> {
    const known = await this.records.find(target.source, target.kind, target.key);
    if (known) await this.unitOfWork.runUnlogged((tx) => this.records.remember(tx, target.source, target.kind, target.key, known.localId, null));
  }

  /** The body as the route's ValidationPipe makes it (same class, same options), or the route's 400 as an ImportRecordError. */
  private validated(dtoClass: DtoClass, input: Input): object {
    const dto = plainToInstance(dtoClass, input);
    const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: false, stopAtFirstError: true });
    if (errors.length > 0) throw new ImportRecordError(describeWpError(toWpValidationError(errors)));
    return dto;
  }

  /** The services' refusals (WpError: 4xx, or a 503 after retries) become ImportRecordErrors; anything else passes. */
  private async refused<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof WpError) throw new ImportRecordError(describeWpError(err));
      throw err;
    }
  }
}

/** The id of the category or tag a create named again (its `term_exists` refusal), else null. */
function namesakeOf(err: unknown): number | null {
  const id = err instanceof WpError && err.code === TERM_EXISTS ? err.data.term_id : undefined;
  return typeof id === 'number' ? id : null;
}

/** The id of what a service's write returned: a stored row, or `{ entity }` (a venue/organizer create). */
function idOf(written: unknown): number {
  const row = written as { id?: unknown; entity?: { id?: unknown } };
  const id = typeof row.id === 'number' ? row.id : row.entity?.id;
  if (typeof id !== 'number') throw new Error('An import write returned no row id.');
  return id;
}

/** `message (code; param: why, …)`: what a route's error body says, on one line. */
export function describeWpError(err: WpError): string {
  const params = err.data.params;
  const detail =
    params && typeof params === 'object' && !Array.isArray(params)
      ? Object.entries(params as Record<string, unknown>).map(([k, v]) => `${k}: ${String(v)}`)
      : Array.isArray(params)
        ? [params.join(', ')]
        : [];
  return `${err.message} (${[err.code, ...detail].join('; ')})`;
}
