import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const TAXONOMIES = ['category', 'tag'] as const;
export type Taxonomy = (typeof TAXONOMIES)[number];

/** A category or a tag; both share one id sequence (spec resources.md, "Ids"). */
@Entity({ name: 'terms' })
@Index('uq_terms_taxonomy_slug', ['taxonomy', 'slug'], { unique: true })
@Index('ix_terms_taxonomy_parent', ['taxonomy', 'parentId'])
@Index('ix_terms_taxonomy_count', ['taxonomy', 'count'])
@Index('ix_terms_taxonomy_name', ['taxonomy', 'name'])
// One name per level (spec errors.md term_exists), enforced by the database: see nameKey.
@Index('uq_terms_taxonomy_parent_name', ['taxonomy', 'parentId', 'nameKey'], { unique: true })
export class TermEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'taxonomy', type: 'varchar', length: 20 })
  taxonomy: Taxonomy;

  @Column({ name: 'name', type: 'varchar', length: 200 })
  name: string;

  /**
   * What makes two names "the same" at one level: a digest of the lower-cased name
   * (term-name-key.ts), the same on both engines whatever the column collation. A term moved
   * next to a namesake by a parent's deletion keeps its name with a key of its own.
   */
  @Column({ name: 'name_key', type: 'varchar', length: 64 })
  nameKey: string;

  @Column({ name: 'slug', type: 'varchar', length: 200 })
  slug: string;

  @Column({ name: 'description', type: 'text' })
  description: string;

  /** 0 for top-level terms and for every tag. */
  @Column({ name: 'parent_id', type: 'int', default: 0 })
  parentId: number;

  /** Published events carrying the term; maintained on every write that changes it. */
  @Column({ name: 'count', type: 'int', default: 0 })
  count: number;
}
