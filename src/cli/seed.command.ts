import { checkSeedOptions, resolveSeedOptions, SeedOptions, Seeder, SeedSummary } from '../seed';
import { UsersService } from '../users';
import type { CliCommand } from '../common/feature/cli-command';
import { parseUsage, UsageError } from './usage';

const COUNTS = ['events', 'venues', 'organizers', 'categories', 'tags', 'seed'] as const;
const text = { type: 'string' } as const;

export const seed: CliCommand = {
  migratesAtStart: true,
  prepare(args) {
    const { values } = parseUsage({
      args,
      options: { events: text, venues: text, organizers: text, categories: text, tags: text, seed: text, today: text, force: { type: 'boolean' } },
    });
    const given: Partial<SeedOptions> = { today: values.today };
    for (const name of COUNTS) {
      const value = values[name];
      if (value !== undefined) given[name] = /^\d+$/.test(value) ? Number(value) : NaN;
    }
    const options = resolveSeedOptions(given);
    const problems = checkSeedOptions(options);
    if (problems.length > 0) throw new UsageError(problems.join('\n'));

    return async (app) => {
      const summary = await app.get(Seeder).run(options, values.force === true);
      const author = await app.get(UsersService).findById(summary.authorId);
      process.stdout.write(seedReport(options, summary, author?.login ?? String(summary.authorId)));
      return 0;
    };
  },
};

function seedReport(o: SeedOptions, s: SeedSummary, author: string): string {
  const n = (x: number) => x.toLocaleString('en-US').padStart(9);
  const e = s.events;
  const terms = (t: { created: number; reused: number }) => `${n(t.created + t.reused)}${t.reused > 0 ? `  (${t.reused} existing reused)` : ''}`;
  return [
    `Seeded in ${s.seconds.toFixed(1)} s (--seed ${o.seed} --today ${o.today}), authored by ${author}:`,
    `  events      ${n(e.total)}  (${e.publish} published, ${e.draft} draft, ${e.trash} trash; ${e.hidden} hidden from listings, ${e.featured} featured; ${e.listed} listed)`,
    `  venues      ${n(s.venues)}`,
    `  organizers  ${n(s.organizers)}`,
    `  categories  ${terms(s.categories)}`,
    `  tags        ${terms(s.tags)}`,
    `  links       ${n(s.organizerLinks)} event-organizer, ${s.termLinks.toLocaleString('en-US')} event-term`,
    '',
  ].join('\n');
}
