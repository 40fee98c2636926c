import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isRole, Role, ROLES } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { isValidLogin } from '../config/app-config';
import { Dialect } from '../database/dialect';
import { ApplicationPasswordEntity } from './application-password.entity';
import { generateApplicationPassword, hashPassword, normalisePassword } from './password-hash';
import { UserEntity } from './user.entity';

export class UserInputError extends Error {}

export interface CreatedUser {
  user: UserEntity;
  /** The application password in clear: shown once, never stored. */
  password: string;
}

@Injectable()
export class UsersService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { login } });
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { id } });
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
    try {
      return await this.db.transaction(async (tx) => {
        const user = await tx.getRepository(UserEntity).save({ login, role: role as Role, createdUtc: nowUtcSql() });
        await tx.getRepository(ApplicationPasswordEntity).save({ userId: user.id, name: 'default', passwordHash: hash, createdUtc: nowUtcSql() });
        return { user, password: clear };
      });
    } catch (err) {
      if (Dialect.of(this.db).isUniqueViolation(err)) throw new UserInputError(`A user with login "${login}" already exists.`);
      throw err;
    }
  }
}
