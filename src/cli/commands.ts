import { cacheFlush } from './cache.commands';
import { importIcs, importTec } from './import.commands';
import type { CliCommand } from './cli-command';
import { migrationCheck, migrationGenerate, migrationRevert, migrationRun, migrationShow } from './migration.commands';
import { seed } from './seed.command';
import { userCreate, userDelete, userList, userPassword, userRevoke } from './user.commands';

/** Every command by name (the usage text in usage.ts lists them for people). */
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  'user:create': userCreate,
  'user:list': userList,
  'user:password': userPassword,
  'user:revoke': userRevoke,
  'user:delete': userDelete,
  'migration:run': migrationRun,
  'migration:revert': migrationRevert,
  'migration:show': migrationShow,
  'migration:generate': migrationGenerate,
  'migration:check': migrationCheck,
  seed,
  'cache:flush': cacheFlush,
  'import:tec': importTec,
  'import:ics': importIcs,
};
