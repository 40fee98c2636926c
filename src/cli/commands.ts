import type { CliCommand } from '../common/feature/cli-command';
import type { Feature } from '../common/feature/feature';
import { cacheFlush } from './cache.commands';
import { migrationCheck, migrationGenerate, migrationRevert, migrationRun, migrationShow } from './migration.commands';

/** The commands of the core: the schema and the caches. */
const CORE_COMMANDS: Readonly<Record<string, CliCommand>> = {
  'migration:run': migrationRun,
  'migration:revert': migrationRevert,
  'migration:show': migrationShow,
  'migration:generate': migrationGenerate,
  'migration:check': migrationCheck,
  'cache:flush': cacheFlush,
};

/**
 * Every command by name: the CLI's own and those the installed features declare
 * (Feature.commands; `cli help` lists them for people, usage.ts). A name declared twice stops
 * the CLI.
 */
export function commandsOf(features: readonly Feature[]): Readonly<Record<string, CliCommand>> {
  const all: Record<string, CliCommand> = { ...CORE_COMMANDS };
  for (const feature of features) {
    for (const [name, command] of Object.entries(feature.commands ?? {})) {
      if (Object.hasOwn(all, name)) throw new Error(`cli: the command ${name} is declared twice (feature ${feature.name})`);
      all[name] = command;
    }
  }
  return all;
}

/** The feature that declares a command (undefined: one of the CLI's own). */
export function ownerOf(features: readonly Feature[], name: string): Feature | undefined {
  return features.find((f) => Object.hasOwn(f.commands ?? {}, name));
}
