import type { CliCommand } from '../common/feature/cli-command';
import { parseUsage, UsageError } from '../cli/index';
import { SourceWorker } from './source-worker';
import { SourcesService } from './sources.service';
import type { RunOutcome } from './source-runner';

/** The administrator as the commands act: they run on the server's own machine, with its rights. */
const OPERATOR = { id: 0, login: 'cli', role: 'administrator' as const };

/** `sources:list`: one line per source: id, kind, state, interval, last run, next run, URL. */
export const sourcesList: CliCommand = {
  migratesAtStart: true,
  context: 'import',
  prepare(args) {
    const { positionals } = parseUsage({ args, allowPositionals: true, options: {} });
    if (positionals.length > 0) throw new UsageError('sources:list takes no arguments.');
    return async (app) => {
      const { sources } = await app.get(SourcesService).list(OPERATOR);
      if (sources.length === 0) {
        process.stdout.write('No sources. Add one with POST /calendar/events/v1/sources (README, "Gathering other calendars").\n');
        return 0;
      }
      const rows = sources.map((s) => {
        const last = s.last_run as { id: number; status: string; finished_utc: string | null } | null;
        return [
          String(s.id),
          String(s.kind),
          s.enabled ? 'enabled' : 'disabled',
          s.interval_minutes === 0 ? 'by hand' : `every ${String(s.interval_minutes)} min`,
          last ? `${last.status}${last.finished_utc ? ` ${last.finished_utc}` : ''}` : 'never run',
          s.next_run_utc ? `next ${String(s.next_run_utc)}` : 'no next run',
          String(s.url),
        ];
      });
      const header = ['ID', 'KIND', 'STATE', 'SCHEDULE', 'LAST RUN (UTC)', 'NEXT RUN (UTC)', 'URL'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const row of [header, ...rows]) process.stdout.write(`${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}\n`);
      return 0;
    };
  },
};

/**
 * `sources:run ID`: runs the source now, in this process, with the importers' progress bars on
 * a terminal and their exit codes: 0 succeeded, 1 partial (some records failed, each said),
 * 2 failed (the source could not be read), no such source, or a run of it already going.
 */
export const sourcesRun: CliCommand = {
  migratesAtStart: true,
  context: 'import',
  prepare(args) {
    const { positionals } = parseUsage({ args, allowPositionals: true, options: {} });
    const [id, ...extra] = positionals;
    if (id === undefined || extra.length > 0 || !/^\d+$/.test(id)) throw new UsageError('sources:run takes one source ID (a whole number).');
    return async (app) => {
      const service = app.get(SourcesService);
      const source = await service.get(OPERATOR, Number(id)).catch(() => null);
      if (!source) {
        process.stderr.write(`sources:run: no source has the id ${id} (sources:list shows them).\n`);
        return 2;
      }
      const runId = await service.start(Number(id), 'manual');
      const outcome = runId === null ? null : await app.get(SourceWorker).runHere(runId, process.stderr);
      if (!outcome) {
        process.stderr.write(`sources:run: source ${id} is being imported now (another run of it is going); try again when it ends.\n`);
        return 2;
      }
      process.stdout.write(`${summary(Number(id), String(source.kind), String(source.url), runId!, outcome)}\n`);
      return outcome.status === 'succeeded' ? 0 : outcome.status === 'partial' ? 1 : 2;
    };
  },
};

function summary(id: number, kind: string, url: string, runId: number, o: RunOutcome): string {
  const c = o.counts;
  const lines = [
    `source ${id} (${kind} ${url}), run ${runId}: ${o.status}`,
    `  created ${c.created}, updated ${c.updated}, unchanged ${c.unchanged}, kept as edited here ${c.kept_local}, trashed ${c.trashed}, failed ${c.failed}`,
    ...o.errors.map((e) => `  ${e.record}: ${e.message}`),
  ];
  return lines.join('\n');
}
