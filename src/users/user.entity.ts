import { Column, Entity, Index, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '../common/auth';
import { ApplicationPasswordEntity } from './application-password.entity';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Index('uq_users_login', { unique: true })
  @Column({ name: 'login', type: 'varchar', length: 60 })
  login: string;

  @Column({ name: 'role', type: 'varchar', length: 20 })
  role: Role;

  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;

  @OneToMany(() => ApplicationPasswordEntity, (p) => p.user)
  applicationPasswords: ApplicationPasswordEntity[];
}
