import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DataVersionEntity } from './data-version.entity';

/** How long another process's write may stay unseen by this process's caches. */
export const SHARED_VERSION_POLL_MS = 250;

/**
 * The version of the data that read caches are keyed by. A write in this process raises it at
 * once (so the next read here sees the write); writes of other processes sharing the database
 * are noticed within SHARED_VERSION_POLL_MS, through the data_version row every write raises.
 */
@Injectable()
export class DataVersion implements OnModuleInit {
  private local = 0;
  private shared = 0;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async onModuleInit(): Promise<void> {
    const rows = this.db.getRepository(DataVersionEntity);
    if (!(await rows.exist({ where: { id: 1 } }))) {
      await rows.insert({ id: 1, version: 0 }).catch(() => undefined); // another process may have won
    }
    await this.poll();
  }

  /** The current version (cheap: reads the shared row at most every SHARED_VERSION_POLL_MS). */
  async current(): Promise<string> {
    if (Date.now() - this.checkedAt > SHARED_VERSION_POLL_MS) {
      this.checking ??= this.poll().finally(() => (this.checking = null));
      await this.checking;
    }
    return `${this.shared}.${this.local}`;
  }

  /** Call after every committed write that changes what readers see. */
  async changed(): Promise<void> {
    this.local += 1;
    await this.raiseShared(this.db.manager);
  }

  /**
   * The same as changed(), for a write that can raise the shared row inside its own
   * transaction (one write less): call within the transaction, then `committed()` after it.
   */
  async raiseShared(manager: EntityManager): Promise<void> {
    await manager.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
  }

  /** After the commit of a transaction that called raiseShared(): this process's caches move on. */
  committed(): void {
    this.local += 1;
  }

  private async poll(): Promise<void> {
    const row = await this.db.getRepository(DataVersionEntity).findOne({ where: { id: 1 } });
    this.shared = row?.version ?? 0;
    this.checkedAt = Date.now();
  }
}
