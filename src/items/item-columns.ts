import { Column, PrimaryColumn } from 'typeorm';

/** The expression of `live_slug`: the same text on both engines. */
export const LIVE_SLUG_EXPRESSION = "CASE WHEN status = 'trash' THEN NULL ELSE slug END";

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

  /**
   * The slug while the item is not in the trash, else NULL: computed by the database, and
   * unique per kind (a unique index on each table), so two concurrent writers can never both
   * take one slug (spec endpoints.md §4.6). Trashed items may share a `__trashed` slug (NULLs
   * never collide). Never read or written by the application.
   */
  @Column({
    name: 'live_slug',
    type: 'varchar',
    length: 200,
    nullable: true,
    generatedType: 'VIRTUAL',
    asExpression: LIVE_SLUG_EXPRESSION,
    insert: false,
    update: false,
    select: false,
  })
  liveSlug?: string | null;

  @Column({ name: 'description', type: 'text' })
  description: string;

  @Column({ name: 'excerpt', type: 'text' })
  excerpt: string;

  @Column({ name: 'image_id', type: 'int', nullable: true, default: null })
  imageId: number | null;
}

/** A named item's name, as much of it as its `name_key` keeps (NAME_KEY_EXPRESSION). */
export const NAME_KEY_LENGTH = 191;
/** The start of the name in lower case: both engines know LOWER and SUBSTR. */
export const NAME_KEY_EXPRESSION = `LOWER(SUBSTR(name, 1, ${NAME_KEY_LENGTH}))`;

/** The columns of venues and organizers: an item with a name. */
export abstract class NamedItemColumns extends ItemColumns {
  /** The name (`venue` / `organizer` in the API). */
  @Column({ name: 'name', type: 'text' })
  name: string;

  /**
   * The name's first 191 characters in lower case, computed by the database and indexed, so
   * that finding an item by its name (a nested venue or organizer that exists already) is an
   * index lookup rather than a scan of the table (a scan makes each such write
   * slower as the calendar grows). Never read or written by the application.
   */
  @Column({
    name: 'name_key',
    type: 'varchar',
    length: NAME_KEY_LENGTH,
    nullable: true,
    generatedType: 'VIRTUAL',
    asExpression: NAME_KEY_EXPRESSION,
    insert: false,
    update: false,
    select: false,
  })
  nameKey?: string | null;
}
