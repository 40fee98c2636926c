import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** An application password, stored only as a salted scrypt hash (see password-hash.ts). */
@Entity({ name: 'application_passwords' })
export class ApplicationPasswordEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Index('ix_application_passwords_user')
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => UserEntity, (u) => u.applicationPasswords, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user: UserEntity;

  @Column({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;
}
