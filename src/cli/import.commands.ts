export { importIcs } from './import-ics.command';
import type { CliCommand } from './cli-command';
import { UsageError } from './usage';

/** Being built on the scaffold (src/imports/tec). */
export const importTec: CliCommand = {
  migratesAtStart: true,
  context: 'import',
  prepare() {
    throw new UsageError('import:tec is not available in this version yet.');
  },
};
