import { Injectable } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { DataVersion } from '../common/cache/data-version.service';
import { ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { UnitOfWork } from '../database/unit-of-work';
import { MediaService } from '../media';
import { PostsService } from '../posts';
import { UsersService } from '../users';
import { hookKind } from '../common/feature/hooks';
import { type ItemHook, ItemHooks } from '../items';
import { LinkedItemDeletes } from './linked-item-deletes';
import { linkedItemProviders, linkedItemTokens } from './linked-item-providers';
import { LinkedItemReads } from './linked-item-reads';
import { LinkedItemWrites } from './linked-item-writes';
import type { LinkedItemEntity } from './linked-items';
import type { LinkedKind } from './linked-kind';
import { CacheShares } from '../common/cache/cache-shares';
import { FEATURES } from '../features';

// The reads, writes and deletes of a kind as the container builds them, in a testing module
// with a fake repository and fake shared services: one instance of each per kind, the reads
// shared by the writes and deletes, and each replaceable on its own.

@Injectable()
class FakeRepository {
  findById = jest.fn(async (id: number) => ({ id, authorId: 1, status: 'publish', dateUtc: '2020-01-01 00:00:00', slug: 's', name: 'n', imageId: null }));
}

@Injectable()
class FakeHooks extends ItemHooks<LinkedItemEntity> {
  constructor(discovery: DiscoveryService) {
    super(discovery, hookKind<ItemHook<LinkedItemEntity>>('test item'), hookKind('test item list'));
  }
}

const KIND = { type: 'venue', collection: 'venues', present: (item: LinkedItemEntity) => ({ id: item.id }) } as unknown as LinkedKind<LinkedItemEntity>;
const TOKENS = linkedItemTokens('venue');

function testingModule() {
  const config = { baseUrl: 'http://cal.test', timezone: 'UTC', cacheMb: 8 } as AppConfig;
  const version = { fresh: () => '1', current: async () => '1' } as unknown as DataVersion;
  return Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [
      FakeHooks,
      ...linkedItemProviders({ kind: KIND, tokens: TOKENS, repository: FakeRepository as never, hooks: FakeHooks }),
      FakeRepository,
      { provide: PostsService, useValue: {} },
      { provide: MediaService, useValue: { present: async () => new Map() } },
      { provide: UsersService, useValue: {} },
      { provide: AppConfig, useValue: config },
      { provide: ReadModel, useValue: new ReadModel(version, config, CacheShares.of(FEATURES)) },
      { provide: UnitOfWork, useValue: fakeUnitOfWork() },
    ],
  });
}

describe('linkedItemProviders', () => {
  it('builds each once, and the writes and deletes share the one reads', async () => {
    const module = await testingModule().compile();
    const reads = module.get(TOKENS.reads);
    expect(reads).toBeInstanceOf(LinkedItemReads);
    expect(module.get(TOKENS.writes)).toBeInstanceOf(LinkedItemWrites);
    expect(module.get(TOKENS.deletes)).toBeInstanceOf(LinkedItemDeletes);
    expect((module.get(TOKENS.writes) as { reads: unknown }).reads).toBe(reads);
    expect((module.get(TOKENS.deletes) as { reads: unknown }).reads).toBe(reads);
  });

  it("gives the reads the kind's repository and the shared services", async () => {
    const module = await testingModule().compile();
    expect(await module.get<LinkedItemReads<LinkedItemEntity>>(TOKENS.reads).get(null, { id: 4 })).toEqual({ id: 4 });
    expect(module.get(FakeRepository).findById).toHaveBeenCalledWith(4);
  });

  it('lets a test replace the reads; the writes and deletes then use the replacement', async () => {
    const fakeReads = { get: jest.fn(async () => ({ id: 'fake' })) };
    const module = await testingModule().overrideProvider(TOKENS.reads).useValue(fakeReads).compile();
    expect(module.get(TOKENS.reads)).toBe(fakeReads);
    expect((module.get(TOKENS.writes) as { reads: unknown }).reads).toBe(fakeReads);
    expect((module.get(TOKENS.deletes) as { reads: unknown }).reads).toBe(fakeReads);
  });

  it('mints new tokens on every call, so two kinds (or two modules) never share one', () => {
    const other = linkedItemTokens('organizer');
    expect(Object.values(other).some((token) => Object.values(TOKENS).includes(token))).toBe(false);
    expect(linkedItemTokens('venue').reads).not.toBe(TOKENS.reads);
  });
});
