import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PostEntity, PostType } from './post.entity';

/** Allocates ids from the shared post sequence and tells what kind of item an id is. */
@Injectable()
export class PostsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Reserve a new id for an item of this type (inside the caller's transaction). */
  async allocate(type: PostType, manager: EntityManager = this.db.manager): Promise<number> {
    const row = await manager.getRepository(PostEntity).save({ type });
    return row.id;
  }

  async typeOf(id: number, manager: EntityManager = this.db.manager): Promise<PostType | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const row = await manager.getRepository(PostEntity).findOne({ where: { id }, select: { id: true, type: true } });
    return row?.type ?? null;
  }

  async isOfType(id: number, type: PostType): Promise<boolean> {
    return (await this.typeOf(id)) === type;
  }
}
