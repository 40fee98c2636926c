import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';

/** The `sessions` table of the editing pages' sign-ins. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(row: Omit<SessionEntity, 'id' | 'user'>): Promise<void> {
    await this.db.getRepository(SessionEntity).insert(row);
  }

  /** The session whose token has this digest, with its user (`user`); null when none. */
  withUser(tokenHash: string): Promise<SessionEntity | null> {
    return this.db
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .innerJoinAndMapOne('s.user', UserEntity, 'u', 'u.id = s.user_id')
      .where('s.token_hash = :hash', { hash: tokenHash })
      .getOne();
  }

  async setExpiry(id: number, expiresUtc: string): Promise<void> {
    await this.db.getRepository(SessionEntity).update({ id }, { expiresUtc });
  }

  async remove(id: number): Promise<void> {
    await this.db.getRepository(SessionEntity).delete({ id });
  }

  async removeByTokenHash(tokenHash: string): Promise<void> {
    await this.db.getRepository(SessionEntity).delete({ tokenHash });
  }

  /** Ends every session of the user; answers how many there were. `tx`: inside a write, its transaction; null outside one. */
  async removeAllOf(userId: number, tx: Tx | null): Promise<number> {
    return (await (tx ?? this.db).getRepository(SessionEntity).delete({ userId })).affected ?? 0;
  }

  /** Deletes the sessions expired at `now`. */
  async removeExpired(now: string): Promise<void> {
    await this.db.getRepository(SessionEntity).createQueryBuilder().delete().where('expires_utc <= :now', { now }).execute();
  }
}
