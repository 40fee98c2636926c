import { parseArgs } from 'node:util';
import { type CliCommand, UsageError } from '../common/feature/cli-command';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** What the user commands need of the CLI's context. */
const providers = [UsersService, UsersRepository, SessionsRepository];

const text = { type: 'string' } as const;

export const userCreate: CliCommand = {
  usage: 'user:create LOGIN --role ROLE [--password PW]',
  description: 'create a user; prints its application password',
  migratesAtStart: true,
  providers,
  prepare(args) {
    const { values, positionals } = parseArgs({ args, options: { role: text, password: text }, allowPositionals: true });
    const role = values.role;
    if (positionals.length !== 1 || !role) throw new UsageError('user:create needs LOGIN and --role ROLE.');
    return async (app) => {
      const { user, password } = await app.get(UsersService).create(positionals[0], role, values.password);
      process.stdout.write(`Created ${user.role} "${user.login}" (id ${user.id}).\nApplication password: ${password}\n`);
      return 0;
    };
  },
};

export const userList: CliCommand = {
  usage: 'user:list',
  description: 'list users: id, login, role, application passwords',
  migratesAtStart: true,
  providers,
  prepare(args) {
    userArgs(args);
    return async (app) => {
      const rows = await app.get(UsersService).list();
      const lines = ['id\tlogin\trole\tpasswords', ...rows.map((u) => `${u.id}\t${u.login}\t${u.role}\t${u.passwords}`)];
      process.stdout.write(rows.length === 0 ? 'No users.\n' : `${lines.join('\n')}\n`);
      return 0;
    };
  },
};

export const userPassword: CliCommand = {
  usage: 'user:password LOGIN [--password PW]',
  description: 'new application password (printed); the old ones stop working',
  migratesAtStart: true,
  providers,
  prepare(args) {
    const { login, values } = userArgs(args, 'user:password');
    return async (app) => {
      const password = await app.get(UsersService).setPassword(login, values.password);
      process.stdout.write(`New application password for "${login}" (the old ones are revoked): ${password}\n`);
      return 0;
    };
  },
};

export const userRevoke: CliCommand = {
  usage: 'user:revoke LOGIN',
  description: 'revoke every application password of the user',
  migratesAtStart: true,
  providers,
  prepare(args) {
    const { login } = userArgs(args, 'user:revoke');
    return async (app) => {
      const n = await app.get(UsersService).revoke(login);
      process.stdout.write(`Revoked ${n} application password${n === 1 ? '' : 's'} of "${login}".\n`);
      return 0;
    };
  },
};

export const userDelete: CliCommand = {
  usage: 'user:delete LOGIN [--reassign OTHER] [--force]',
  description:
    'delete a user; its events, venues and organizers go to\nOTHER (refused without --reassign when it has any); the\nlast administrator is refused unless --force',
  migratesAtStart: true,
  providers,
  prepare(args) {
    const { login, values } = userArgs(args, 'user:delete');
    return async (app) => {
      const users = app.get(UsersService);
      const { reassigned } = await users.delete(login, values.reassign, { force: values.force });
      const noAdministrator = values.force && !(await users.list()).some((u) => u.role === 'administrator');
      const notes = [reassigned > 0 && `${reassigned} items now belong to "${values.reassign}"`, noAdministrator && 'no administrator is left'];
      process.stdout.write(`Deleted "${login}"${notes.map((note) => (note ? `; ${note}` : '')).join('')}.\n`);
      return 0;
    };
  },
};

/**
 * The arguments user:list|password|revoke|delete share (each accepts every option, as it
 * always has; --force matters to user:delete only); with `command`, exactly one LOGIN is required. A parseArgs complaint (unknown
 * option) is not turned into a usage error here: it has always ended as a failure (exit 1).
 */
function userArgs(args: string[], command?: string) {
  const { values, positionals } = parseArgs({
    args,
    options: { password: text, reassign: text, force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (command !== undefined && positionals.length !== 1) throw new UsageError(`${command} needs LOGIN.`);
  return { login: positionals[0], values };
}
