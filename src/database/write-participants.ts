import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';
import type { ChangeLogOutbox, ChangeSet } from './change-log';
import type { Tx } from './tx';

/**
 * A participant in a write (extending.md §1, write hooks): called by the unit of work in the
 * write's transaction, after the write's own work and before its change rows; and once after the
 * commit. A provider declared `@Hook(WRITE_PARTICIPANTS)` joins every write: the listing
 * columns (src/events), the webhook outbox (src/sync), an extension that must see, refuse or
 * add to every write. Declared by the caller of one write
 * (UnitOfWork.run's `declared`), it joins that write alone: an importer's record of which source
 * record a row came from (src/imports).
 */
export interface WriteParticipant {
  /**
   * Inside the write's transaction, right after its work, with what the work returned (the
   * stored row): for participants declared by the write's caller, before any beforeCommit.
   * Called again from scratch when the write is retried.
   */
  written?(tx: Tx, result: unknown, changes: ChangeSet): Promise<void>;
  /**
   * Inside the write's transaction, after its work: may read what it wrote, write more (and
   * record it in `changes`), or throw a WpError to refuse the write (nothing is kept). Called
   * again from scratch when the write is retried.
   */
  beforeCommit?(tx: Tx, changes: ChangeSet): Promise<void>;
  /**
   * Joins the writing of the write's change rows, in its transaction, after every beforeCommit
   * (the webhook outbox): the listener of this attempt, which appendChanges drives.
   */
  changeLog?(tx: Tx, changes: ChangeSet): ChangeLogOutbox;
  /** After the write committed (never for a write that failed), with what it changed. */
  afterCommit?(changes: ChangeSet): void;
}

export const WRITE_PARTICIPANTS = hookKind<WriteParticipant>('write participant');

/** The participants of every write, as the app provides them (Hooks), for the unit of work. */
@Injectable()
export class WriteParticipants extends Hooks<WriteParticipant> {
  constructor(discovery: DiscoveryService) {
    super(discovery, WRITE_PARTICIPANTS);
  }
}
