import { Logger } from '@nestjs/common';
import type { IcsSeriesHooks } from '../imports';
import { loadConfig } from '../config/app-config';
import type { EventDeleter } from '../events';
import type { ImportedRecordsRepository, ImportWriter } from '../imports';
import { SourceEntity } from './source.entity';
import type { SourceItemsRepository } from './source-items.repository';
import { SourceRunner } from './source-runner';
import type { SourcesRepository } from './sources.repository';

const source = (fields: Partial<SourceEntity> = {}): SourceEntity =>
  Object.assign(
    new SourceEntity(),
    {
      id: 7,
      kind: 'ics',
      url: 'https://calendar.example.org/feed.ics',
      authorId: 1,
      keepLocalEdits: false,
      onSourceDelete: 'keep',
      password: null,
      login: null,
      categories: '[]',
      status: null,
      etag: null,
      lastModified: null,
      windowFrom: -30,
      windowTo: 365,
    },
    fields,
  );

/**
 * A SourceRunner on fakes: users known by `logins`, and a writer, deleter and records that fail
 * the test when a run writes (the runs here must stop before writing).
 */
function runnerOn(logins = new Map([[1, 'admin']])) {
  const sources = { logins: jest.fn(async (ids: number[]) => new Map([...logins].filter(([id]) => ids.includes(id)))), eventStatus: jest.fn() };
  const writes = new Proxy(
    {},
    {
      get: (_t, name) => () => {
        throw new Error(`a run wrote: ${String(name)}`);
      },
    },
  );
  const runner = new SourceRunner(
    sources as unknown as SourcesRepository,
    {} as SourceItemsRepository,
    loadConfig({}),
    writes as ImportWriter,
    writes as EventDeleter,
    writes as IcsSeriesHooks,
    writes as ImportedRecordsRepository,
  );
  return { runner, sources };
}

describe('SourceRunner', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('fails a run whose author is gone, naming the user, before reading the source', async () => {
    const { runner, sources } = runnerOn(new Map());
    const progress = jest.fn();
    const outcome = await runner.run(source({ authorId: 9 }), progress);
    expect(sources.logins).toHaveBeenCalledWith([9]);
    expect(outcome.status).toBe('failed');
    expect(outcome.errors).toEqual([{ record: 'source 7', message: expect.stringContaining('author (user 9) no longer exists') }]);
    expect(outcome.counts).toEqual({ created: 0, updated: 0, unchanged: 0, kept_local: 0, failed: 0, trashed: 0 });
  });

  it('fails a TEC source whose stored password cannot be read (sealed with a key this instance lacks)', async () => {
    const { runner } = runnerOn();
    const outcome = await runner.run(source({ kind: 'tec', url: 'https://tec.example.org', login: 'bot', password: 'enc1:AAAA' }));
    expect(outcome.status).toBe('failed');
    expect(outcome.errors[0].message).toMatch(/password cannot be read/);
  });

  it('refuses a source on a private address, naming the setting that allows it', async () => {
    const { runner } = runnerOn();
    const outcome = await runner.run(source({ url: 'http://127.0.0.1:9/feed.ics' }));
    expect(outcome.status).toBe('failed');
    expect(outcome.errors[0].message).toMatch(/CALENDAR_SOURCES_ALLOW_PRIVATE=on/);
    expect(outcome.validators).toBeUndefined();
  });
});
