import type { DataSource as DataSourceType } from 'typeorm';
import { DataSource } from 'typeorm';
import { type CliCommand, parseUsage, UsageError } from '../common/feature/cli-command';
import { ChangeKinds } from '../database/change-kinds';
import { EventsRepository } from '../events';
import { OrganizersRepository } from '../organizers';
import { PostsRepository, PostsService } from '../posts';
import { TermsRepository } from '../taxonomies';
import { SessionsRepository, UsersRepository, UsersService } from '../users';
import { VenuesRepository } from '../venues';
import { Progress } from './progress';
import { checkSeedOptions, resolveSeedOptions, type SeedOptions } from './seed-plan';
import { SeedRepository } from './seed.repository';
import { Seeder, type SeedSummary } from './seeder';

const COUNTS = ['events', 'venues', 'organizers', 'categories', 'tags', 'seed'] as const;
const text = { type: 'string' } as const;

export const seed: CliCommand = {
  usage: 'seed [--events N] [--venues V] [--organizers O] [--categories C] [--tags T] [--seed S] [--today DATE] [--force]',
  description:
    'fill the database with a generated dataset (default 100000\nevents; venues N/50, organizers N/100, 100 categories,\n300 tags, seed 1, today); refuses a database that has\nevents unless --force',
  migratesAtStart: true,
  // The seeder and the repositories it writes through, without the features' modules (their start hooks are the server's).
  providers: [
    UsersService,
    UsersRepository,
    SessionsRepository,
    PostsService,
    PostsRepository,
    EventsRepository,
    VenuesRepository,
    OrganizersRepository,
    TermsRepository,
    { provide: SeedRepository, inject: [DataSource], useFactory: (db: DataSourceType) => new SeedRepository(db) },
    {
      provide: Seeder,
      inject: [DataSource, PostsService, EventsRepository, VenuesRepository, OrganizersRepository, TermsRepository, UsersService, SeedRepository, ChangeKinds],
      useFactory: (
        db: DataSourceType,
        posts: PostsService,
        events: EventsRepository,
        venues: VenuesRepository,
        organizers: OrganizersRepository,
        terms: TermsRepository,
        users: UsersService,
        reads: SeedRepository,
        kinds: ChangeKinds,
      ) => new Seeder({ db, posts, events, venues, organizers, terms, users, reads, kinds }, (label, total) => new Progress(label, total)),
    },
  ],
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
