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
import { type ItemHook, ItemHooks } from './item-hooks';
import { LinkedItemDeletes } from './linked-item-deletes';
import { linkedItemProviders, linkedItemTokens } from './linked-item-providers';
import { LinkedItemReads } from './linked-item-reads';
import { LinkedItemWrites } from './linked-item-writes';
import type { LinkedItemEntity } from './linked-items';
import { LinkedItems } from './linked-items.service';
import type { LinkedKind } from './linked-kind';
import { CacheShares } from '../common/cache/cache-shares';
import { FEATURES } from '../features';

// The rooms of a kind as the container builds them, in a testing module with
// a fake repository and fake shared services: one instance of each room per kind, the reads
// room shared by the others and the front door, and each room replaceable on its own.

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
const ROOMS = linkedItemTokens('venue');

function testingModule() {
  const config = { baseUrl: 'http://cal.test', timezone: 'UTC', cacheMb: 8 } as AppConfig;
  const version = { fresh: () => '1', current: async () => '1' } as unknown as DataVersion;
  return Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [
      FakeHooks,
      ...linkedItemProviders({ kind: KIND, tokens: ROOMS, repository: FakeRepository as never, hooks: FakeHooks }),
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
  it('builds each room once, and the writes, deletes and front door share the one reads room', async () => {
    const module = await testingModule().compile();
    const reads = module.get(ROOMS.reads);
    const items = module.get<LinkedItems<LinkedItemEntity>>(ROOMS.items);
    expect(reads).toBeInstanceOf(LinkedItemReads);
    expect(module.get(ROOMS.writes)).toBeInstanceOf(LinkedItemWrites);
    expect(module.get(ROOMS.deletes)).toBeInstanceOf(LinkedItemDeletes);
    expect(items.reads).toBe(reads);
    expect(items.writes).toBe(module.get(ROOMS.writes));
    expect(items.deletes).toBe(module.get(ROOMS.deletes));
  });

  it("gives the reads room the kind's repository and the shared services", async () => {
    const module = await testingModule().compile();
    expect(await module.get<LinkedItems<LinkedItemEntity>>(ROOMS.items).get(null, { id: 4 })).toEqual({ id: 4 });
    expect(module.get(FakeRepository).findById).toHaveBeenCalledWith(4);
  });

  it('lets a test replace one room; the front door then answers from the replacement', async () => {
    const fakeReads = { get: jest.fn(async () => ({ id: 'fake' })) };
    const module = await testingModule().overrideProvider(ROOMS.reads).useValue(fakeReads).compile();
    const items = module.get<LinkedItems<LinkedItemEntity>>(ROOMS.items);
    expect(await items.get(null, { id: 1 })).toEqual({ id: 'fake' });
    expect(items.reads).toBe(fakeReads);
  });

  it('mints new tokens on every call, so two kinds (or two modules) never share one', () => {
    const other = linkedItemTokens('organizer');
    expect(Object.values(other).some((token) => Object.values(ROOMS).includes(token))).toBe(false);
    expect(linkedItemTokens('venue').reads).not.toBe(ROOMS.reads);
  });
});
