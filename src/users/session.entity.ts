import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * A signed-in browser session of the editing pages (editing.md §1). Only a SHA-256 digest of the
 * cookie's token is kept, so a copy of the table signs nobody in; every instance reads the same
 * rows, so signing out on one signs out on all.
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** Hex SHA-256 of the cookie's random token. */
  @Index('uq_sessions_token', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Index('ix_sessions_user')
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user: UserEntity;

  /** The secret the session's form tokens are made from and checked against (@fastify/csrf). */
  @Column({ name: 'csrf_secret', type: 'varchar', length: 64 })
  csrfSecret: string;

  /** "Keep me signed in": idle for up to 30 days instead of 2 hours. */
  @Column({ name: 'persistent', type: 'boolean', default: false })
  persistent: boolean;

  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;

  /** UTC: when the session stops being accepted unless used again before. */
  @Index('ix_sessions_expires')
  @Column({ name: 'expires_utc', type: 'varchar', length: 19 })
  expiresUtc: string;
}
