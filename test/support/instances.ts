import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from './test-app';

/** Two instances on one database (a temporary SQLite file, or TEST_DATABASE_URL's server); `only` adds settings of one of them. */
export async function twoInstances(
  env: Record<string, string>,
  only: { a?: Record<string, string>; b?: Record<string, string> } = {},
): Promise<{ a: TestApp; b: TestApp; close: () => Promise<void> }> {
  const folder = process.env.TEST_DATABASE_URL ? null : mkdtempSync(join(tmpdir(), 'calendar-instances-'));
  const dbEnv: Record<string, string> = folder ? { DATABASE_URL: `sqlite:${join(folder, 'shared.sqlite')}` } : {};
  const a = await createTestApp({ ...env, ...only.a, ...dbEnv });
  const b = await createTestApp({ ...env, ...only.b, ...dbEnv }, { sharing: a });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}
