import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isRole, Role, ROLES } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { isValidLogin } from '../config/app-config';
import type { ChangeType } from '../database/change-log';
import { Dialect } from '../database/dialect';
import { managerOf, type Reader, type Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import { ApplicationPasswordEntity } from './application-password.entity';
import { generateApplicationPassword, hashPassword, normalisePassword, verifyPassword } from './password-hash';
import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';

export class UserInputError extends Error {}

export interface CreatedUser {
  user: UserEntity;
  /** The application password in clear: shown once, never stored. */
  password: string;
}

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly dialect: Dialect,
  ) {}

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { login } });
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { id } });
  }

  /** Is there a user with this id? `reader`: inside a write, its transaction (an event written by an extension's hook). */
  exists(id: number, reader: Reader): Promise<boolean> {
    return managerOf(reader, this.db).getRepository(UserEntity).exists({ where: { id } });
  }

  /**
   * The user's role while this hash is still one of its application passwords (not revoked or
   * replaced), else null: a remembered sign-in holds only with the same hash and the same role.
   */
  async roleWithPasswordHash(userId: number, hash: string): Promise<string | null> {
    // Plain SQL: it runs on every authenticated request, and TypeORM's exists() spent ~100 µs
    // building the query (a profile of POST /events) for a lookup that takes a few.
    const rows = (await this.db.query(
      'SELECT u.role AS role FROM application_passwords p INNER JOIN users u ON u.id = p.user_id WHERE p.user_id = ? AND p.password_hash = ? LIMIT 1',
      [userId, hash],
    )) as { role: string }[];
    return rows.length > 0 ? rows[0].role : null;
  }

  /** Does `password` match one of the user's application passwords? */
  async acceptsPassword(userId: number, password: string): Promise<boolean> {
    for (const hash of await this.passwordHashes(userId)) if (await verifyPassword(password, hash)) return true;
    return false;
  }

  async passwordHashes(userId: number): Promise<string[]> {
    const rows = await this.db.getRepository(ApplicationPasswordEntity).find({ where: { userId }, select: { passwordHash: true } });
    return rows.map((r) => r.passwordHash);
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
    return this.uow.run(async (tx) => {
      if (await tx.getRepository(UserEntity).exists({ where: { login } })) throw new UserInputError(`A user with login "${login}" already exists.`);
      const user = await tx.getRepository(UserEntity).save({ login, role: role as Role, createdUtc: nowUtcSql() });
      await tx.getRepository(ApplicationPasswordEntity).save({ userId: user.id, name: 'default', passwordHash: hash, createdUtc: nowUtcSql() });
      return { user, password: clear };
    });
  }

  /** Every user with how many application passwords it has, in id order (no secrets). */
  async list(): Promise<{ id: number; login: string; role: string; passwords: number }[]> {
    const users = await this.db.getRepository(UserEntity).find({ order: { id: 'ASC' } });
    const counts: { user_id: number | string; n: number | string }[] = await this.db.query(
      'SELECT user_id, COUNT(*) AS n FROM application_passwords GROUP BY user_id',
    );
    const byUser = new Map(counts.map((c) => [Number(c.user_id), Number(c.n)]));
    return users.map((u) => ({ id: u.id, login: u.login, role: u.role, passwords: byUser.get(u.id) ?? 0 }));
  }

  /** One page of the users, in login order, and how many there are (the editing pages' list). */
  async page(page: number, perPage: number): Promise<{ users: UserEntity[]; total: number }> {
    const [users, total] = await this.db.getRepository(UserEntity).findAndCount({ order: { login: 'ASC' }, skip: (page - 1) * perPage, take: perPage });
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
    await this.uow.run(async (tx) => {
      if (user.role === 'administrator' && !(await this.otherAdministratorExists(tx, user.id))) {
        throw new UserInputError(
          `"${login}" is the last administrator: without one, nobody can manage webhooks through the API. ` +
            'Make another user an administrator first (npm run cli -- user:create LOGIN --role administrator).',
        );
      }
      await tx.getRepository(UserEntity).update({ id: user.id }, { role });
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
    await this.uow.run(async (tx) => {
      await tx.getRepository(ApplicationPasswordEntity).delete({ userId: user.id });
      await tx.getRepository(ApplicationPasswordEntity).save({ userId: user.id, name: 'default', passwordHash: hash, createdUtc: nowUtcSql() });
      // A new password ends the browser sessions opened with the old one (editing.md §1).
      await tx.getRepository(SessionEntity).delete({ userId: user.id });
    });
    return clear;
  }

  /** Revokes every application password of the user; returns how many there were. */
  async revoke(login: string): Promise<number> {
    const user = await this.requireLogin(login);
    return this.uow.run(async (tx) => {
      await tx.getRepository(SessionEntity).delete({ userId: user.id });
      return (await tx.getRepository(ApplicationPasswordEntity).delete({ userId: user.id })).affected ?? 0;
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
    return this.uow.run(async (tx, changes) => {
      if (user.role === 'administrator' && !force && !(await this.otherAdministratorExists(tx, user.id))) {
        throw new UserInputError(
          `"${login}" is the last administrator: without one, nobody can manage webhooks through the API. ` +
            'Create another first (npm run cli -- user:create LOGIN --role administrator), or add --force to delete it anyway.',
        );
      }
      let authored = 0;
      for (const [table, type] of AUTHORED_TABLES) {
        const rows = (await tx.query(`SELECT id FROM ${table} WHERE author_id = ?`, [user.id])) as { id: number | string }[];
        authored += rows.length;
        // Their representations name the new author: for the read caches and the change feed, each changed.
        for (const row of rows) changes.record(type, Number(row.id));
      }
      if (authored > 0 && !heir) {
        throw new UserInputError(`"${login}" is the author of ${authored} events, venues or organizers; name who takes them over with --reassign LOGIN.`);
      }
      if (heir) for (const [table] of AUTHORED_TABLES) await tx.query(`UPDATE ${table} SET author_id = ? WHERE author_id = ?`, [heir.id, user.id]);
      await tx.getRepository(ApplicationPasswordEntity).delete({ userId: user.id });
      await tx.getRepository(SessionEntity).delete({ userId: user.id });
      await tx.getRepository(UserEntity).delete({ id: user.id });
      return { reassigned: authored };
    });
  }

  /**
   * Is there an administrator other than `userId`? The administrators' rows are read locked
   * (Dialect.lockForUpdate), so that two deletes of the last two administrators take turns
   * and the second one sees that the first is gone.
   */
  private async otherAdministratorExists(tx: Tx, userId: number): Promise<boolean> {
    const query = tx.getRepository(UserEntity).createQueryBuilder('u').select('u.id').where('u.role = :role', { role: 'administrator' });
    const administrators = await this.dialect.lockForUpdate(query).getMany();
    return administrators.some((a) => a.id !== userId);
  }

  private async requireLogin(login: string): Promise<UserEntity> {
    const user = await this.findByLogin(login);
    if (!user) throw new UserInputError(`No user has the login "${login}".`);
    return user;
  }
}

/** Tables whose rows name a user as their author. */
const AUTHORED_TABLES: readonly [string, ChangeType][] = [
  ['events', 'event'],
  ['venues', 'venue'],
  ['organizers', 'organizer'],
];
