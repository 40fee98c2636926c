import type { CliCommand } from './cli-command';
import { UsageError } from './usage';

/** Not built yet: the import:ics work builds on the import scaffold (src/imports). */
export const importIcs: CliCommand = {
  migratesAtStart: true,
  context: 'import',
  prepare() {
    throw new UsageError('import:ics is not available in this version yet.');
  },
};

/** Being built on the scaffold (src/imports/tec). */
export const importTec: CliCommand = {
  migratesAtStart: true,
  context: 'import',
  prepare() {
    throw new UsageError('import:tec is not available in this version yet.');
  },
};
