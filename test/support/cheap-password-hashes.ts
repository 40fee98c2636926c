// Run before every file of the e2e projects (jest.config.js setupFilesAfterEnv).
//
// Each user a test creates costs one scrypt hash, and its first request or sign-in one more
// check, at the cost the service hashes with (SCRYPT_COST, N=2^15: 32 MiB and tens of
// milliseconds each, a quarter of a second on a busy two-core machine). The in-process apps of
// the e2e tests hash at N=2^10 instead. Each hash carries its own parameters and verifyPassword
// reads them from there, so signing in, application passwords and the failed-login limits run
// the same code; a hash written by a CLI child process (at the full cost) verifies as well.
// The unit project, which this file does not reach, hashes at the full cost.
import type * as PasswordHash from '../../src/users/password-hash';

jest.mock('../../src/users/password-hash', () => {
  const actual = jest.requireActual<typeof PasswordHash>('../../src/users/password-hash');
  /** The same shape and code path, 32 times cheaper in time and memory. */
  const testCost: PasswordHash.ScryptCost = { N: 1024, r: 8, p: 1 };
  return { ...actual, hashPassword: (password: string) => actual.hashPassword(password, testCost) };
});
