import { Injectable } from '@nestjs/common';
import type { ChangeLogOutbox, ChangeSet } from './change-log';
import type { Tx } from './tx';

/**
 * A participant in every write (extending.md §1, write hooks): called by the unit of work of
 * every write, in its transaction, after the write's own work and before its change rows; and
 * once after the commit. The webhook outbox is one (src/sync); so is any extension that must
 * see, refuse or add to every write.
 */
export interface WriteParticipant {
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

/** The registry the unit of work calls; modules register in onModuleInit. */
@Injectable()
export class WriteParticipants {
  private readonly list: WriteParticipant[] = [];

  register(participant: WriteParticipant): void {
    this.list.push(participant);
  }

  all(): readonly WriteParticipant[] {
    return this.list;
  }
}
