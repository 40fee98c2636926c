import { CacheBus } from '../common/cache/cache-bus';
import { UnitOfWork } from '../database/unit-of-work';
import { type CliCommand, UsageError } from '../common/feature/cli-command';

/**
 * `cache:flush`: every running instance on this database drops its read caches within a quarter
 * of a second (at once with REDIS_URL). For data changed behind the service's back (SQL by hand,
 * a restored backup): it commits an empty write, whose `bulk` change row every instance's read
 * model follows like any other write's — the one way caches are invalidated — and announces it
 * on the instances' Redis channel, as the server does after its own writes.
 */
export const cacheFlush: CliCommand = {
  usage: 'cache:flush',
  description: "every running instance drops its read caches (after data\nwas changed behind the service's back)",
  migratesAtStart: true,
  prepare(args) {
    if (args.length > 0) throw new UsageError('cache:flush takes no arguments.');
    return async (app) => {
      await app.get(UnitOfWork).run(async () => undefined);
      const pushed = await app.get(CacheBus).announce();
      process.stdout.write(
        pushed
          ? 'Flushed: every instance on this database drops its read caches at its next read (announced through Redis).\n'
          : 'Flushed: every instance on this database drops its read caches within a second.\n',
      );
      return 0;
    };
  },
};
