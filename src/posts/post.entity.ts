import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const POST_TYPES = ['event', 'venue', 'organizer', 'media'] as const;
export type PostType = (typeof POST_TYPES)[number];

/**
 * The shared id sequence of events, venues, organizers and media items (spec resources.md:
 * "an id never identifies two of them"). Each of those tables takes its primary key from a row
 * here, which also answers "what kind of item is id N?" in one indexed lookup.
 */
@Entity({ name: 'posts' })
export class PostEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'type', type: 'varchar', length: 20 })
  type: PostType;
}
