import { DateTime } from 'luxon';
import { AppConfig } from '../config/app-config';
import { type CliCommand, parseUsage, UsageError } from '../common/feature/cli-command';
import { IcsSeriesHooks } from './ics-series-hooks';
import { IcsInputError } from './ics/ics-calendar';
import { IcsImporter, summaryLine } from './ics/ics-importer';
import { ImportedRecordsRepository } from './imported-records.repository';
import { ImportRecordError, ImportWriter } from './import-writer';

const STATUSES = ['publish', 'draft'] as const;

/** `--from`/`--to`: a date (`2025-03-01`) or an ISO date-time, in UTC unless it says its offset. */
function parseBound(name: string, value: string | undefined, fallback: DateTime): DateTime {
  if (value === undefined) return fallback;
  const dt = DateTime.fromISO(value, { zone: 'utc' });
  if (!dt.isValid) throw new UsageError(`--${name} must be a date such as 2025-03-01 (got "${value}").`);
  return dt;
}

/**
 * `import:ics FILE_OR_URL [--status publish|draft] [--category NAME]… [--author LOGIN] [--dry-run]
 * [--from DATE] [--to DATE]` (spec ical.md, Import). Exit 0 when every event was written or
 * skipped, 1 when any failed, 2 when the input cannot be used.
 */
export const importIcs: CliCommand = {
  usage: 'import:ics FILE_OR_URL [--status publish|draft] [--category NAME]... [--author LOGIN] [--dry-run]\n           [--from DATE] [--to DATE]',
  description:
    'import the events of an iCalendar file or feed (recurring\nevents expanded from --from to --to, default 30 days ago\nto one year ahead); a re-run updates what changed',
  migratesAtStart: true,
  context: 'import',
  prepare(args) {
    const { values, positionals } = parseUsage({
      args,
      allowPositionals: true,
      options: {
        status: { type: 'string' },
        category: { type: 'string', multiple: true },
        author: { type: 'string' },
        'dry-run': { type: 'boolean' },
        from: { type: 'string' },
        to: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('import:ics needs one FILE_OR_URL.');
    const status = values.status ?? 'publish';
    if (!(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be publish or draft (got "${status}").`);
    // Default window: 30 days ago to one year ahead (spec ical.md, Import).
    const now = DateTime.utc();
    const from = parseBound('from', values.from, now.minus({ days: 30 }));
    const to = parseBound('to', values.to, now.plus({ years: 1 }));
    if (to <= from) throw new UsageError('--to must be after --from.');
    const categories = (values.category ?? []).map((c) => c.trim()).filter((c) => c !== '');

    return async (app) => {
      const importer = new IcsImporter(app.get(ImportWriter), app.get(ImportedRecordsRepository), process.stderr, app.get(IcsSeriesHooks));
      try {
        const result = await importer.run({
          input: positionals[0],
          status: status as (typeof STATUSES)[number],
          categories,
          author: values.author,
          dryRun: values['dry-run'] ?? false,
          window: { fromMs: from.toMillis(), toMs: to.toMillis() },
          siteZone: app.get(AppConfig).timezone,
        });
        process.stdout.write(`${summaryLine(result, values['dry-run'] ?? false)}\n`);
        return result.counts.failed > 0 ? 1 : 0;
      } catch (err) {
        if (err instanceof IcsInputError || err instanceof ImportRecordError) {
          process.stderr.write(`import:ics: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
    };
  },
};
