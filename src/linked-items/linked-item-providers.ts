// The reads, writes and deletes of a venue-like kind as Nest providers: one of each per kind,
// each built by the container from what it uses.
import type { Provider, Type } from '@nestjs/common';
import { ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { MediaService } from '../media';
import { PostsService } from '../posts';
import { UsersService } from '../users';
import type { ItemHooks } from '../items';
import { LinkedItemDeletes } from './linked-item-deletes';
import { LinkedItemReads } from './linked-item-reads';
import { LinkedItemWrites } from './linked-item-writes';
import type { LinkedItemEntity, LinkedItemType } from './linked-items';
import type { LinkedItemsRepository } from './linked-items.repository';
import type { LinkedKind } from './linked-kind';

/**
 * How the reads, writes and deletes of one kind are asked for:
 * `@Inject(VENUE_TOKENS.reads) venues: LinkedItemReads<VenueEntity>`. Symbols, because the
 * three classes are shared by both kinds and so cannot name one.
 */
export interface LinkedItemTokens {
  readonly reads: symbol;
  readonly writes: symbol;
  readonly deletes: symbol;
}

export function linkedItemTokens(type: LinkedItemType): LinkedItemTokens {
  return { reads: Symbol(`${type}.reads`), writes: Symbol(`${type}.writes`), deletes: Symbol(`${type}.deletes`) };
}

/** What a kind's module names for its providers: the kind, their tokens, and its own repository and registry of hooks. */
export interface LinkedItemWiring<E extends LinkedItemEntity> {
  kind: LinkedKind<E>;
  tokens: LinkedItemTokens;
  repository: Type<LinkedItemsRepository<E>>;
  hooks: Type<ItemHooks<E>>;
}

/**
 * The providers of one kind's reads, writes and deletes: each is injected with only the parts
 * it uses, and the writes and deletes with the kind's reads, so a spec or a test module can
 * replace any of them (`overrideProvider(VENUE_TOKENS.reads)`).
 */
export function linkedItemProviders<E extends LinkedItemEntity>({ kind, tokens, repository, hooks }: LinkedItemWiring<E>): Provider[] {
  return [
    {
      provide: tokens.reads,
      inject: [repository, PostsService, MediaService, AppConfig, hooks, ReadModel],
      useFactory: (repo: LinkedItemsRepository<E>, posts: PostsService, media: MediaService, config: AppConfig, hookList: ItemHooks<E>, readModel: ReadModel) =>
        new LinkedItemReads(kind, { repo, posts, media, config, hooks: hookList, readModel }),
    },
    {
      provide: tokens.writes,
      inject: [tokens.reads, repository, PostsService, MediaService, UsersService, AppConfig, hooks, UnitOfWork],
      useFactory: (
        reads: LinkedItemReads<E>,
        repo: LinkedItemsRepository<E>,
        posts: PostsService,
        media: MediaService,
        users: UsersService,
        config: AppConfig,
        hookList: ItemHooks<E>,
        unitOfWork: UnitOfWork,
      ) => new LinkedItemWrites(kind, reads, { repo, posts, media, users, config, hooks: hookList, unitOfWork }),
    },
    {
      provide: tokens.deletes,
      inject: [tokens.reads, repository, PostsService, hooks, UnitOfWork],
      useFactory: (reads: LinkedItemReads<E>, repo: LinkedItemsRepository<E>, posts: PostsService, hookList: ItemHooks<E>, unitOfWork: UnitOfWork) =>
        new LinkedItemDeletes(kind, reads, { repo, posts, hooks: hookList, unitOfWork }),
    },
  ];
}
