import type { Actor } from '../common/auth';
import { isSealed, openSecret } from '../common/crypto/secret-box';
import { WpError } from '../common/errors';
import { loadConfig } from '../config/app-config';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import type { TermsService } from '../taxonomies';
import type { UsersService } from '../users';
import { SourceEntity, SourceRunEntity } from './source.entity';
import type { SourceRunsRepository } from './source-runs.repository';
import { PASSWORD_CONTEXT } from './source-secrets';
import type { SourcesRepository } from './sources.repository';
import { SourcesService } from './sources.service';

const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const KEY = 'ab'.repeat(32);

const source = (fields: Partial<SourceEntity> = {}): SourceEntity =>
  Object.assign(new SourceEntity(), { id: 7, kind: 'ics', url: 'https://example.org/feed.ics', authorId: 1, currentRunId: null, lastRunId: null }, fields);

/**
 * A SourcesService on fakes: a sources table of `rows` whose `claim` succeeds unless the source
 * has a current run, runs numbered from 100, and a unit of work that runs the work once.
 */
function serviceOn(rows: SourceEntity[], env: Record<string, string> = {}) {
  const passwords = new Map(rows.map((r) => [r.id, r.password ?? null]));
  const sources = {
    find: jest.fn(async (id: number) => rows.find((r) => r.id === id) ?? null),
    all: jest.fn(async () => rows),
    passwords: jest.fn(async () => [...passwords].map(([id, password]) => ({ id, password }))),
    replacePassword: jest.fn(async (id: number, was: string, password: string) => {
      if (passwords.get(id) !== was) return false;
      passwords.set(id, password);
      return true;
    }),
    claim: jest.fn(async (_tx: unknown, id: number, runId: number) => {
      const row = rows.find((r) => r.id === id)!;
      if (row.currentRunId !== null) return false;
      row.currentRunId = runId;
      return true;
    }),
    logins: jest.fn(async () => new Map([[1, 'admin']])),
  };
  let next = 100;
  const runs = {
    queue: jest.fn(async () => next++),
    prune: jest.fn(async () => undefined),
    find: jest.fn(async (id: number) => Object.assign(new SourceRunEntity(), { id, sourceId: 7, status: 'queued', trigger: 'manual', errors: '[]' })),
    findMany: jest.fn(async () => []),
  };
  const service = new SourcesService(
    sources as unknown as SourcesRepository,
    runs as unknown as SourceRunsRepository,
    loadConfig(env),
    fakeUnitOfWork(),
    {} as UsersService,
    {} as TermsService,
  );
  return { service, sources, runs, passwords };
}

describe('SourcesService', () => {
  it('starts a run: queues it, makes it the current one and prunes the old ones', async () => {
    const { service, runs, sources } = serviceOn([source()]);
    expect(await service.start(7, 'schedule')).toBe(100);
    expect(runs.queue).toHaveBeenCalledWith(undefined, 7, 'schedule', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));
    expect(sources.claim).toHaveBeenCalledWith(undefined, 7, 100);
    expect(runs.prune).toHaveBeenCalledWith(undefined, 7, 200);
  });

  it('starts nothing while a run of the source goes (null, nothing pruned)', async () => {
    const { service, runs } = serviceOn([source({ currentRunId: 3 })]);
    expect(await service.start(7, 'schedule')).toBeNull();
    expect(runs.prune).not.toHaveBeenCalled();
  });

  it('answers a run by hand as queued, and 409 rest_source_busy while one goes', async () => {
    const woken = jest.fn();
    const { service } = serviceOn([source()]);
    service.onQueued(woken);
    expect(await service.runNow(admin, 7)).toMatchObject({ id: 100, source: 7 });
    expect(woken).toHaveBeenCalledTimes(1);
    await expect(service.runNow(admin, 7)).rejects.toMatchObject({ code: 'rest_source_busy', status: 409 });
  });

  it('refuses who may not manage sources, and an unknown source with 404', async () => {
    const { service } = serviceOn([source()]);
    await expect(service.runNow(editor, 7)).rejects.toBeInstanceOf(WpError);
    await expect(service.runNow(admin, 8)).rejects.toMatchObject({ code: 'rest_source_invalid_id', status: 404 });
  });

  it('seals the passwords stored as given when a key is set, and counts those it sealed', async () => {
    const { service, passwords } = serviceOn([source({ id: 1, password: 'plain' }), source({ id: 2, password: null }), source({ id: 3, password: 'other' })], {
      CALENDAR_WEBHOOK_KEY: KEY,
    });
    expect(await service.sealStoredPasswords()).toBe(2);
    expect(isSealed(passwords.get(1)!)).toBe(true);
    expect(openSecret(passwords.get(1)!, Buffer.from(KEY, 'hex'), PASSWORD_CONTEXT)).toBe('plain');
    expect(passwords.get(2)).toBeNull();
    // Sealed already: left as it is.
    expect(await service.sealStoredPasswords()).toBe(0);
  });

  it('seals nothing without a key', async () => {
    const { service, sources } = serviceOn([source({ password: 'plain' })]);
    expect(await service.sealStoredPasswords()).toBe(0);
    expect(sources.replacePassword).not.toHaveBeenCalled();
  });
});
