import { AppConfig, loadConfig } from '../config/app-config';
import { newTestService } from '../../test/support/new-test-service';
import { WpError } from '../common/errors';
import { AuthService } from './auth.service';
import { LimiterStore } from './limiter-store';
import { hashPassword } from './password-hash';
import { UsersService } from './users.service';

describe('AuthService.verify', () => {
  let stored: string;
  let hashReads: number;
  let service: AuthService;

  beforeAll(async () => {
    stored = await hashPassword('abcd efgh ijkl mnop qrst uvwx');
  });
  beforeEach(() => {
    hashReads = 0;
    const users = {
      findByLogin: async (login: string) => (login === 'editor' ? { id: 7, login: 'editor', role: 'editor' } : null),
      passwordHashes: async () => {
        hashReads++;
        return [stored];
      },
      roleWithPasswordHash: async (_id: number, hash: string) => (hash === stored ? 'editor' : null),
    };
    const config = loadConfig({});
    service = newTestService(AuthService, [
      { provide: UsersService, useValue: users },
      { provide: AppConfig, useValue: config },
      { provide: LimiterStore, useValue: new LimiterStore(config) },
    ]).sut;
  });

  it('checks credentials sent by many requests at once with one scrypt, and answers each of them', async () => {
    const actors = await Promise.all(Array.from({ length: 8 }, () => service.verify('editor', 'abcdefghijklmnopqrstuvwx')));
    expect(actors.map((a) => a.id)).toEqual(Array(8).fill(7));
    expect(hashReads).toBe(1);
  });

  it('gives every request waiting on a failed check the same 401, and checks again afterwards', async () => {
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => service.verify('editor', 'wrong')));
    expect(results.map((r) => r.status)).toEqual(Array(4).fill('rejected'));
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WpError);
    expect(hashReads).toBe(1);
    await expect(service.verify('editor', 'wrong')).rejects.toBeInstanceOf(WpError);
    expect(hashReads).toBe(2);
  });

  it('counts a refusal for each request that waited on the refused check, and gives back the point of a right password', async () => {
    let taken = 0;
    const tally = {
      take: async () => void taken++,
      giveBack: async () => void taken--,
    };
    await Promise.allSettled(Array.from({ length: 5 }, () => service.verify('editor', 'wrong', tally)));
    expect({ taken, hashReads }).toEqual({ taken: 5, hashReads: 1 });
    await Promise.all(Array.from({ length: 3 }, () => service.verify('editor', 'abcdefghijklmnopqrstuvwx', tally)));
    expect(taken).toBe(5);
  });

  it('does not share a check between different passwords', async () => {
    await Promise.allSettled([service.verify('editor', 'abcdefghijklmnopqrstuvwx'), service.verify('editor', 'wrong')]);
    expect(hashReads).toBe(2);
  });
});
