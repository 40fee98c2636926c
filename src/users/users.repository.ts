import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../common/auth';
import { Dialect } from '../database/dialect';
import { managerOf, type Reader, type Tx } from '../database/tx';
import { ApplicationPasswordEntity } from './application-password.entity';
import { UserEntity } from './user.entity';

/** The `users` table and their application passwords (`application_passwords`). */
@Injectable()
export class UsersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { login } });
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { id } });
  }

  /** Is there a user with this id? `reader`: inside a write, its transaction. */
  exists(id: number, reader: Reader): Promise<boolean> {
    return managerOf(reader, this.db).getRepository(UserEntity).exists({ where: { id } });
  }

  loginTaken(tx: Tx, login: string): Promise<boolean> {
    return tx.getRepository(UserEntity).exists({ where: { login } });
  }

  insert(tx: Tx, user: { login: string; role: Role; createdUtc: string }): Promise<UserEntity> {
    return tx.getRepository(UserEntity).save(user);
  }

  async setRole(tx: Tx, id: number, role: Role): Promise<void> {
    await tx.getRepository(UserEntity).update({ id }, { role });
  }

  async remove(tx: Tx, id: number): Promise<void> {
    await tx.getRepository(UserEntity).delete({ id });
  }

  /** Every user, in id order. */
  all(): Promise<UserEntity[]> {
    return this.db.getRepository(UserEntity).find({ order: { id: 'ASC' } });
  }

  /** The administrator with the lowest id (the first made), or null when there is none. */
  firstAdministrator(): Promise<UserEntity | null> {
    return this.db.getRepository(UserEntity).findOne({ where: { role: 'administrator' }, order: { id: 'ASC' } });
  }

  /** One page of the users in login order, and how many there are. */
  page(skip: number, take: number): Promise<[UserEntity[], number]> {
    return this.db.getRepository(UserEntity).findAndCount({ order: { login: 'ASC' }, skip, take });
  }

  /**
   * The ids of the administrators, read locked (Dialect.lockForUpdate): two writes that each
   * look for another administrator take turns, and the second sees what the first changed.
   */
  async administratorIds(tx: Tx): Promise<number[]> {
    const query = tx.getRepository(UserEntity).createQueryBuilder('u').select('u.id').where('u.role = :role', { role: 'administrator' });
    return (await this.dialect.lockForUpdate(query).getMany()).map((u) => u.id);
  }

  /**
   * The user's role while this hash is still one of its application passwords (not revoked or
   * replaced), else null.
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

  async passwordHashes(userId: number): Promise<string[]> {
    const rows = await this.db.getRepository(ApplicationPasswordEntity).find({ where: { userId }, select: { passwordHash: true } });
    return rows.map((r) => r.passwordHash);
  }

  /** How many application passwords each user has (users without any are absent). */
  async passwordCounts(): Promise<Map<number, number>> {
    const counts: { user_id: number | string; n: number | string }[] = await this.db.query(
      'SELECT user_id, COUNT(*) AS n FROM application_passwords GROUP BY user_id',
    );
    return new Map(counts.map((c) => [Number(c.user_id), Number(c.n)]));
  }

  async insertPassword(tx: Tx, row: { userId: number; name: string; passwordHash: string; createdUtc: string }): Promise<void> {
    await tx.getRepository(ApplicationPasswordEntity).save(row);
  }

  /** Removes every application password of the user; answers how many there were. */
  async removePasswords(tx: Tx, userId: number): Promise<number> {
    return (await tx.getRepository(ApplicationPasswordEntity).delete({ userId })).affected ?? 0;
  }
}
