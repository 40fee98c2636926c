import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An organizer; id from the shared post sequence. Publication dates in UTC, shown in the site zone. */
@Entity({ name: 'organizers' })
@Index('ix_organizers_status_date', ['status', 'dateUtc', 'id'])
@Index('ix_organizers_slug', ['slug'])
@Index('ix_organizers_author', ['authorId'])
export class OrganizerEntity {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: string;

  @Column({ name: 'status_before_trash', type: 'varchar', length: 20, nullable: true, default: null })
  statusBeforeTrash: string | null;

  @Column({ name: 'date_utc', type: 'varchar', length: 19 })
  dateUtc: string;

  @Column({ name: 'modified_utc', type: 'varchar', length: 19 })
  modifiedUtc: string;

  /** The organizer name (`organizer` in the API). */
  @Column({ name: 'name', type: 'text' })
  name: string;

  @Column({ name: 'slug', type: 'varchar', length: 200 })
  slug: string;

  @Column({ name: 'description', type: 'text' })
  description: string;

  @Column({ name: 'excerpt', type: 'text' })
  excerpt: string;

  @Column({ name: 'phone', type: 'varchar', length: 255, default: '' })
  phone: string;

  @Column({ name: 'website', type: 'text' })
  website: string;

  @Column({ name: 'email', type: 'varchar', length: 255, default: '' })
  email: string;

  @Column({ name: 'image_id', type: 'int', nullable: true, default: null })
  imageId: number | null;
}
