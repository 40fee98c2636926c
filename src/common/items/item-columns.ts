import { Column, PrimaryColumn } from 'typeorm';

/**
 * Columns every item has: events, venues and organizers. The id comes from the shared post
 * sequence (PostsService.allocate); publication dates are kept in UTC only and shown in the
 * site zone by the presenters.
 */
export abstract class ItemColumns {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'status', type: 'varchar', length: 20 })
  status: string;

  /** The status an item had before it was trashed (permissions judge trashed items by it). */
  @Column({ name: 'status_before_trash', type: 'varchar', length: 20, nullable: true, default: null })
  statusBeforeTrash: string | null;

  @Column({ name: 'date_utc', type: 'varchar', length: 19 })
  dateUtc: string;

  @Column({ name: 'modified_utc', type: 'varchar', length: 19 })
  modifiedUtc: string;

  @Column({ name: 'slug', type: 'varchar', length: 200 })
  slug: string;

  @Column({ name: 'description', type: 'text' })
  description: string;

  @Column({ name: 'excerpt', type: 'text' })
  excerpt: string;

  @Column({ name: 'image_id', type: 'int', nullable: true, default: null })
  imageId: number | null;
}
