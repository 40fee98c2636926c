import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { PostEntity, PostType } from './post.entity';

/** The `posts` table: the shared id sequence of every post-like item, with each id's type. */
@Injectable()
export class PostsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  /** One new row; its id. */
  insertOne(tx: Tx, type: PostType): Promise<number> {
    // Plain SQL: every write takes this path, and the ORM's save() costs more than the insert.
    return this.dialect.insertReturningId(tx, 'INSERT INTO posts (type) VALUES (?)', [type]);
  }

  /**
   * `count` new rows in one INSERT and their ids, or null when the engine may interleave them
   * with a concurrent writer's (Dialect.insertReturningIds): then the caller inserts one by one.
   */
  insertMany(tx: Tx, type: PostType, count: number): Promise<number[] | null> {
    return this.dialect.insertReturningIds(tx, `INSERT INTO posts (type) VALUES ${Array(count).fill('(?)').join(', ')}`, Array(count).fill(type), count);
  }

  /** The highest id given so far (0 when none). */
  async highestId(tx: Tx): Promise<number> {
    const row = await tx.getRepository(PostEntity).createQueryBuilder('p').select('MAX(p.id)', 'max').getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  /** `count` new rows by multi-row inserts (bulk loads), without their ids: see idsAfter. */
  async insertBulk(tx: Tx, type: PostType, count: number): Promise<void> {
    await insertInChunks(
      tx,
      PostEntity,
      Array.from({ length: count }, () => ({ type })),
    );
  }

  /** The ids above `after`, in ascending order. */
  async idsAfter(tx: Tx, after: number): Promise<number[]> {
    const rows = await tx
      .getRepository(PostEntity)
      .createQueryBuilder('p')
      .select('p.id', 'id')
      .where('p.id > :after', { after })
      .orderBy('p.id', 'ASC')
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  async remove(tx: Tx, id: number): Promise<void> {
    await tx.getRepository(PostEntity).delete({ id });
  }

  async typeOf(id: number): Promise<PostType | null> {
    const row = await this.db.getRepository(PostEntity).findOne({ where: { id }, select: { id: true, type: true } });
    return row?.type ?? null;
  }
}
