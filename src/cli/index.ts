// What the features use of the CLI: the commands they declare (Feature.commands), kept here
// beside the rest of the command line, and its usage errors.
export type { CliCommand, CliRun } from '../common/feature/cli-command';
export { UsageError, parseUsage } from './usage';
export { userCreate, userDelete, userList, userPassword, userRevoke } from './user.commands';
export { seed } from './seed.command';
export { importIcs, importTec } from './import.commands';
