import type { CliCommand } from '../common/feature/cli-command';

/** Where the descriptions start in `cli help`. */
const COLUMN = 50;

/**
 * `npm run cli -- help`: the commands the installed features declare (and the CLI's own), each
 * with its usage and description as it declares them. Output is for people; the exit code is
 * for scripts (0 done, 1 refused or failed, 2 bad usage or configuration).
 */
export function usageText(commands: Readonly<Record<string, CliCommand>>): string {
  const lines = ['Usage: npm run cli -- <command>', '', 'Commands:'];
  for (const command of Object.values(commands)) {
    const usage = command.usage.split('\n').map((line) => `  ${line}`);
    const description = command.description.split('\n');
    // The description starts beside the usage's last line when it fits, else under it.
    const last = usage[usage.length - 1];
    if (last.length < COLUMN - 1) usage[usage.length - 1] = `${last.padEnd(COLUMN)}${description.shift() ?? ''}`;
    lines.push(...usage, ...description.map((line) => `${' '.repeat(COLUMN)}${line}`));
  }
  lines.push(
    '',
    'Imports and sources:run exit 0 when every record was written, 1 when some failed (each one is said), 2 when the',
    'source cannot be used. They print a progress bar on a terminal and a summary at the end.',
    '',
    'The database is the one DATABASE_URL names (default sqlite:data/calendar.sqlite). Extensions are found in',
    'extensions/ and in CALENDAR_EXTENSIONS; a command of a feature that is switched off is refused.',
  );
  return lines.join('\n');
}
