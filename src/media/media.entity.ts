import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A media item (featured image) known by its remote URL; id from the shared post sequence.
 * The service does not download or resize (spec endpoints.md §4.7, Adaptation).
 */
@Entity({ name: 'media' })
@Index('uq_media_url_hash', ['urlHash'], { unique: true })
export class MediaEntity {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  @Column({ name: 'url', type: 'text' })
  url: string;

  /** SHA-256 of the URL, hex: an indexable key for reuse of the same URL. */
  @Column({ name: 'url_hash', type: 'varchar', length: 64 })
  urlHash: string;

  @Column({ name: 'mime_type', type: 'varchar', length: 100 })
  mimeType: string;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'date_utc', type: 'varchar', length: 19 })
  dateUtc: string;
}
