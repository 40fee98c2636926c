import { ChildProcess, execFile, spawn } from 'node:child_process';
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

/** A CLI child's end: its exit code, or null and the signal that killed it. */
export interface SpawnedCli {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- …` as a child process; `onStart` gets it (to kill it mid-run). */
export function spawnCli(args: string[], env: Record<string, string>, onStart?: (child: ChildProcess) => void): Promise<SpawnedCli> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [START, '--cli', ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(child);
  });
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
