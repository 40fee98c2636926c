import { newTestService } from '../../test/support/new-test-service';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { UnitOfWork } from '../database/unit-of-work';
import { MAX_FORM_AGE_MS, MIN_FORM_AGE_MS, SubmissionStamps } from './submission-stamps';
import { SubmissionsRepository } from './submissions.repository';

/** A repository holding the one key row in memory: the first offer wins, as the INSERT … IGNORE does. */
function keyStore(initial: string | null = null) {
  let key = initial;
  return {
    signingKey: jest.fn(async () => key),
    offerSigningKey: jest.fn(async (_tx: unknown, secret: string) => {
      key ??= secret;
    }),
  };
}

async function started(repository = keyStore()): Promise<SubmissionStamps> {
  const { sut } = newTestService(SubmissionStamps, [
    { provide: SubmissionsRepository, useValue: repository },
    { provide: UnitOfWork, useValue: fakeUnitOfWork() },
  ]);
  await sut.onApplicationBootstrap();
  return sut;
}

describe('the submission form’s signed timestamps (SubmissionStamps)', () => {
  it('takes a stamp from three seconds to a day old, and refuses it before and after', async () => {
    const stamps = await started();
    const now = 1_900_000_000_000;
    stamps.now = () => now;
    const at = (age: number) => stamps.read(stamps.issue(now - age));
    expect(at(MIN_FORM_AGE_MS)).toEqual({ ok: true });
    expect(at(MAX_FORM_AGE_MS)).toEqual({ ok: true });
    expect(at(MIN_FORM_AGE_MS - 1)).toEqual({ ok: false, problem: 'early' });
    expect(at(-60_000)).toEqual({ ok: false, problem: 'early' });
    expect(at(MAX_FORM_AGE_MS + 1)).toEqual({ ok: false, problem: 'late' });
  });

  it('refuses a stamp it did not sign, a moved time, or none', async () => {
    const stamps = await started();
    const [time, signature] = stamps.issue(Date.now() - 10_000).split('.');
    expect(stamps.read(`${Number(time) - 1000}.${signature}`)).toEqual({ ok: false, problem: 'forged' });
    expect(stamps.read(`${time}.${signature.slice(1)}x`)).toEqual({ ok: false, problem: 'forged' });
    expect(stamps.read(`${time}`)).toEqual({ ok: false, problem: 'forged' });
    expect(stamps.read('')).toEqual({ ok: false, problem: 'missing' });
    expect(stamps.read(['a'])).toEqual({ ok: false, problem: 'missing' });
    // Another key (another database) signs differently.
    const other = await started(keyStore('ab'.repeat(32)));
    expect(other.read(`${time}.${signature}`)).toEqual({ ok: false, problem: 'forged' });
  });

  it('makes the key once: an instance that starts later reads the key the first one stored', async () => {
    const repository = keyStore();
    const first = await started(repository);
    const second = await started(repository);
    expect(repository.offerSigningKey).toHaveBeenCalledTimes(1);
    expect(second.read(first.issue(Date.now() - 10_000))).toEqual({ ok: true });
  });
});
