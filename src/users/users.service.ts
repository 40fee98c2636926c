import { Injectable } from '@nestjs/common';
import { isRole, Role, ROLES } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { isValidLogin } from '../config/app-config';
import { itemsAuthoredBy, reassignAuthor } from '../database/authors';
import type { Reader, Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import { generateApplicationPassword, hashPassword, normalisePassword, verifyPassword } from './password-hash';
import { SessionsRepository } from './sessions.repository';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';

export class UserInputError extends Error {}

export interface CreatedUser {
  user: UserEntity;
  /** The application password in clear: shown once, never stored. */
  password: string;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.users.findByLogin(login);
  }

  /** The first administrator made (the lowest id), or null. */
  firstAdministrator(): Promise<UserEntity | null> {
    return this.users.firstAdministrator();
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /** Is there a user with this id? `reader`: inside a write, its transaction (an event written by an extension's hook). */
  exists(id: number, reader: Reader): Promise<boolean> {
    return this.users.exists(id, reader);
  }

  /**
   * The user's role while this hash is still one of its application passwords (not revoked or
   * replaced), else null: a remembered sign-in holds only with the same hash and the same role.
   */
  roleWithPasswordHash(userId: number, hash: string): Promise<string | null> {
    return this.users.roleWithPasswordHash(userId, hash);
  }

  /** Does `password` match one of the user's application passwords? */
  async acceptsPassword(userId: number, password: string): Promise<boolean> {
    for (const hash of await this.passwordHashes(userId)) if (await verifyPassword(password, hash)) return true;
    return false;
  }

  passwordHashes(userId: number): Promise<string[]> {
    return this.users.passwordHashes(userId);
  }

  /**
   * Creates a user with one application password (generated when not given).
   * Throws UserInputError for a bad login, an unknown role or a login that exists.
   */
  async create(login: string, role: string, password?: string): Promise<CreatedUser> {
    if (!isValidLogin(login)) throw new UserInputError(`Invalid login "${login}": use 1-60 characters without spaces or ":".`);
    if (!isRole(role)) throw new UserInputError(`Unknown role "${role}". Roles: ${ROLES.join(', ')}.`);
    const clear = password === undefined ? generateApplicationPassword() : password;
    if (normalisePassword(clear).length < 8) throw new UserInputError('The password must have at least 8 characters.');
    const hash = await hashPassword(clear);
    // A login taken meanwhile is found on the next attempt (the unit of work retries a lost unique race).
    return this.unitOfWork.run(async (tx) => {
      if (await this.users.loginTaken(tx, login)) throw new UserInputError(`A user with login "${login}" already exists.`);
      const user = await this.users.insert(tx, { login, role: role as Role, createdUtc: nowUtcSql() });
      await this.users.insertPassword(tx, { userId: user.id, name: 'default', passwordHash: hash, createdUtc: nowUtcSql() });
      return { user, password: clear };
    });
  }

  /** Every user with how many application passwords it has, in id order (no secrets). */
  async list(): Promise<{ id: number; login: string; role: string; passwords: number }[]> {
    const users = await this.users.all();
    const byUser = await this.users.passwordCounts();
    return users.map((u) => ({ id: u.id, login: u.login, role: u.role, passwords: byUser.get(u.id) ?? 0 }));
  }

  /** One page of the users, in login order, and how many there are (the editing pages' list). */
  async page(page: number, perPage: number): Promise<{ users: UserEntity[]; total: number }> {
    const [users, total] = await this.users.page((page - 1) * perPage, perPage);
    return { users, total };
  }

  /**
   * Gives the user another role. Taking the role of administrator from the last one is refused,
   * as deleting it is: without an administrator nobody manages webhooks or users.
   */
  async setRole(login: string, role: string): Promise<UserEntity> {
    if (!isRole(role)) throw new UserInputError(`Unknown role "${role}". Roles: ${ROLES.join(', ')}.`);
    const user = await this.requireLogin(login);
    if (user.role === role) return user;
    await this.unitOfWork.run(async (tx) => {
      if (user.role === 'administrator' && !(await this.otherAdministratorExists(tx, user.id))) {
        throw new UserInputError(
          `"${login}" is the last administrator: without one, nobody can manage webhooks through the API. ` +
            'Make another user an administrator first (npm run cli -- user:create LOGIN --role administrator).',
        );
      }
      await this.users.setRole(tx, user.id, role);
    });
    // The sessions and the API read the role from the user's row on every request: the new one applies at once.
    return { ...user, role };
  }

  /**
   * Replaces every application password of the user by one new one (generated when not given)
   * and returns it in clear; the old ones stop working at once, in running servers too.
   */
  async setPassword(login: string, password?: string): Promise<string> {
    const user = await this.requireLogin(login);
    const clear = password === undefined ? generateApplicationPassword() : password;
    if (normalisePassword(clear).length < 8) throw new UserInputError('The password must have at least 8 characters.');
    const hash = await hashPassword(clear);
    await this.unitOfWork.run(async (tx) => {
      await this.users.removePasswords(tx, user.id);
      await this.users.insertPassword(tx, { userId: user.id, name: 'default', passwordHash: hash, createdUtc: nowUtcSql() });
      // A new password ends the browser sessions opened with the old one (editing.md §1).
      await this.sessions.removeAllOf(user.id, tx);
    });
    return clear;
  }

  /** Revokes every application password of the user; returns how many there were. */
  async revoke(login: string): Promise<number> {
    const user = await this.requireLogin(login);
    return this.unitOfWork.run(async (tx) => {
      await this.sessions.removeAllOf(user.id, tx);
      return this.users.removePasswords(tx, user.id);
    });
  }

  /**
   * Deletes the user and its application passwords. A user who authored events, venues or
   * organizers is refused unless `reassignTo` names a user who takes them over. The last
   * administrator is refused unless `force`.
   */
  async delete(login: string, reassignTo?: string, { force = false } = {}): Promise<{ reassigned: number }> {
    const user = await this.requireLogin(login);
    const heir = reassignTo === undefined ? null : await this.requireLogin(reassignTo);
    if (heir?.id === user.id) throw new UserInputError('A user cannot take over its own items.');
    return this.unitOfWork.run(async (tx, changes) => {
      if (user.role === 'administrator' && !force && !(await this.otherAdministratorExists(tx, user.id))) {
        throw new UserInputError(
          `"${login}" is the last administrator: without one, nobody can manage webhooks through the API. ` +
            'Create another first (npm run cli -- user:create LOGIN --role administrator), or add --force to delete it anyway.',
        );
      }
      // The items of every kind whose rows name their author (events, venues, organizers).
      const authored = await itemsAuthoredBy(tx, changes.kinds, user.id);
      // Their representations name the new author: for the read caches and the change feed, each changed.
      for (const item of authored) changes.record(item.type, item.id);
      if (authored.length > 0 && !heir) {
        throw new UserInputError(
          `"${login}" is the author of ${authored.length} events, venues or organizers; name who takes them over with --reassign LOGIN.`,
        );
      }
      if (heir) await reassignAuthor(tx, changes.kinds, user.id, heir.id);
      await this.users.removePasswords(tx, user.id);
      await this.sessions.removeAllOf(user.id, tx);
      await this.users.remove(tx, user.id);
      return { reassigned: authored.length };
    });
  }

  /**
   * Is there an administrator other than `userId`? The administrators' rows are read locked
   * (Dialect.lockForUpdate), so that two deletes of the last two administrators take turns
   * and the second one sees that the first is gone.
   */
  private async otherAdministratorExists(tx: Tx, userId: number): Promise<boolean> {
    return (await this.users.administratorIds(tx)).some((id) => id !== userId);
  }

  private async requireLogin(login: string): Promise<UserEntity> {
    const user = await this.findByLogin(login);
    if (!user) throw new UserInputError(`No user has the login "${login}".`);
    return user;
  }
}
