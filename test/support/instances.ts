import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from './test-app';

/** Two instances on one database (a temporary SQLite file, or TEST_DATABASE_URL's server). */
export async function twoInstances(env: Record<string, string>): Promise<{ a: TestApp; b: TestApp; close: () => Promise<void> }> {
  const folder = process.env.TEST_DATABASE_URL ? null : mkdtempSync(join(tmpdir(), 'calendar-instances-'));
  const dbEnv: Record<string, string> = folder ? { DATABASE_URL: `sqlite:${join(folder, 'shared.sqlite')}` } : {};
  const a = await createTestApp({ ...env, ...dbEnv });
  const b = await createTestApp({ ...env, ...dbEnv }, { sharing: a });
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
