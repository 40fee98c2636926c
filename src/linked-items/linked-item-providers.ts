// The reads, writes and deletes of a venue-like kind as Nest providers: one of each per kind,
// each built by the container from what it uses.
import type { Provider, Type } from '@nestjs/common';
import { ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import type { ItemExtensions } from '../items';
import { MediaService } from '../media';
import { PostsService } from '../posts';
import { UsersService } from '../users';
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

/** What a kind's module names for its providers: the kind, their tokens, and its own repository and extension registry. */
export interface LinkedItemWiring<E extends LinkedItemEntity> {
  kind: LinkedKind<E>;
  tokens: LinkedItemTokens;
  repository: Type<LinkedItemsRepository<E>>;
  extensions: Type<ItemExtensions<E>>;
}

/**
 * The providers of one kind's reads, writes and deletes: each is injected with only the parts
 * it uses, and the writes and deletes with the kind's reads, so a spec or a test module can
 * replace any of them (`overrideProvider(VENUE_TOKENS.reads)`).
 */
export function linkedItemProviders<E extends LinkedItemEntity>({ kind, tokens, repository, extensions }: LinkedItemWiring<E>): Provider[] {
  return [
    {
      provide: tokens.reads,
      inject: [repository, PostsService, MediaService, AppConfig, extensions, ReadModel],
      useFactory: (repo: LinkedItemsRepository<E>, posts: PostsService, media: MediaService, config: AppConfig, ext: ItemExtensions<E>, readModel: ReadModel) =>
        new LinkedItemReads(kind, { repo, posts, media, config, extensions: ext, readModel }),
    },
    {
      provide: tokens.writes,
      inject: [tokens.reads, repository, PostsService, MediaService, UsersService, AppConfig, extensions, UnitOfWork],
      useFactory: (
        reads: LinkedItemReads<E>,
        repo: LinkedItemsRepository<E>,
        posts: PostsService,
        media: MediaService,
        users: UsersService,
        config: AppConfig,
        ext: ItemExtensions<E>,
        uow: UnitOfWork,
      ) => new LinkedItemWrites(kind, reads, { repo, posts, media, users, config, extensions: ext, uow }),
    },
    {
      provide: tokens.deletes,
      inject: [tokens.reads, repository, PostsService, extensions, UnitOfWork],
      useFactory: (reads: LinkedItemReads<E>, repo: LinkedItemsRepository<E>, posts: PostsService, ext: ItemExtensions<E>, uow: UnitOfWork) =>
        new LinkedItemDeletes(kind, reads, { repo, posts, extensions: ext, uow }),
    },
  ];
}
