import { type CliCommand, parseUsage, UsageError } from '../common/feature/cli-command';
import { ImportReport } from './import-report';
import { ImportWriter } from './import-writer';
import { DEFAULT_POLICY, SiteError } from './tec/tec-http';
import { TecImporter, type TecImportOptions } from './tec/tec-importer';

/**
 * import:tec SITE_URL [--user LOGIN --password APP_PASSWORD] [--since DATE] [--to DATE] [--as LOGIN]
 * [--dry-run] [--timeout SECONDS] [--attempts N] (spec compat.md, "Import from a live TEC site").
 * Exit 0: every record written or unchanged; 1: some failed (each said); 2: bad usage or a site
 * that cannot be used (unreachable after retries, not TEC, credentials refused).
 */
export const importTec: CliCommand = {
  usage: 'import:tec SITE_URL [--user LOGIN --password APP_PASSWORD] [--since DATE] [--to DATE] [--as LOGIN] [--dry-run]',
  description:
    'import categories, tags, venues, organizers and events from a\nsite running The Events Calendar (drafts too with --user/--password);\na re-run updates what changed and duplicates nothing',
  migratesAtStart: true,
  context: 'import',
  prepare(args) {
    const text = { type: 'string' } as const;
    const { values, positionals } = parseUsage({
      args,
      allowPositionals: true,
      options: { user: text, password: text, since: text, to: text, as: text, timeout: text, attempts: text, 'dry-run': { type: 'boolean' } },
    });
    const [siteUrl, ...extra] = positionals;
    if (!siteUrl || extra.length > 0) throw new UsageError('import:tec takes one SITE_URL.');
    if (!/^https?:\/\/[^/]/i.test(siteUrl) || !URL.canParse(siteUrl)) throw new UsageError(`"${siteUrl}" is not an http(s) URL.`);
    if ((values.user === undefined) !== (values.password === undefined)) throw new UsageError('--user and --password go together.');
    for (const name of ['since', 'to'] as const) {
      const v = values[name];
      if (v !== undefined && !/^\d{4}-\d\d-\d\d( \d\d:\d\d(:\d\d)?)?$/.test(v)) throw new UsageError(`--${name} takes a date: YYYY-MM-DD [HH:MM[:SS]].`);
    }
    const count = (name: 'timeout' | 'attempts', fallback: number) => {
      const v = values[name];
      if (v === undefined) return fallback;
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${name} takes a whole number of at least 1.`);
      return Number(v);
    };
    const policy = {
      ...DEFAULT_POLICY,
      timeoutMs: count('timeout', DEFAULT_POLICY.timeoutMs / 1000) * 1000,
      attempts: count('attempts', DEFAULT_POLICY.attempts),
    };
    const options: TecImportOptions = {
      siteUrl,
      user: values.user,
      password: values.password,
      since: values.since,
      to: values.to,
      as: values.as,
      dryRun: values['dry-run'] === true,
      policy,
    };

    return async (app) => {
      const report = new ImportReport(process.stderr, options.dryRun);
      const importer = new TecImporter(app.get(ImportWriter), report, options, (line) => process.stderr.write(`${line}\n`));
      try {
        await importer.run();
      } catch (err) {
        report.end();
        if (!(err instanceof SiteError)) throw err;
        process.stderr.write(`import:tec: ${err.message}\n`);
        return 2;
      }
      process.stdout.write(`From ${importer.apiRoot}\n${report.summary()}`);
      return report.failed > 0 ? 1 : 0;
    };
  },
};
