import { UsageError } from '../../src/extend';
import type { CliCommand } from '../../src/extend';
import { CapacityRepository } from './capacity.repository';

/**
 * `capacity:report`: every event with a capacity, largest first (`id`, capacity, title, tab
 * separated), then the total. It runs in the service's context (`import`) for the module's repository.
 */
export const capacityReport: CliCommand = {
  usage: 'capacity:report',
  description: 'every event with a capacity, largest first, and the total\n(the capacity extension)',
  migratesAtStart: true,
  context: 'import',
  prepare(args) {
    if (args.length > 0) throw new UsageError('capacity:report takes no arguments.');
    return async (app) => {
      const rows = await app.get(CapacityRepository).report();
      for (const r of rows) process.stdout.write(`${r.id}\t${r.capacity}\t${r.title}\n`);
      process.stdout.write(`${rows.length} events, ${rows.reduce((sum, r) => sum + r.capacity, 0)} places\n`);
      return 0;
    };
  },
};
