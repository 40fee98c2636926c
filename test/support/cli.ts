import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createScratchDatabase } from './test-app';

const ROOT = join(__dirname, '..', '..');
const START = join(ROOT, 'scripts', 'start.js');
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run cli -- …` the way a person would (through scripts/start.js, which builds when needed). */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [START, '--cli', ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * A database of its own for CLI processes, on the engine the suite runs on: a new database on
 * the server of TEST_DATABASE_URL (dropped by `remove`), or else a SQLite file in a new folder
 * that does not exist yet (the folder is removed by `remove`).
 */
export async function cliDatabase(): Promise<{ url: string; remove: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (server && /^(mysql|mariadb):\/\//.test(server)) {
    const scratch = await createScratchDatabase(server);
    return { url: scratch.url, remove: scratch.drop };
  }
  const folder = mkdtempSync(join(tmpdir(), 'calendar-cli-db-'));
  return { url: `sqlite:${join(folder, 'calendar.sqlite')}`, remove: async () => rmSync(folder, { recursive: true, force: true }) };
}
