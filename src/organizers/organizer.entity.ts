import { Column, Entity, Index } from 'typeorm';
import { NamedItemColumns } from '../items';

/** An organizer; id from the shared post sequence. Publication dates in UTC, shown in the site zone. */
@Entity({ name: 'organizers' })
@Index('ix_organizers_status_date', ['status', 'dateUtc', 'id'])
@Index('ix_organizers_slug', ['slug'])
@Index('uq_organizers_live_slug', ['liveSlug'], { unique: true })
@Index('ix_organizers_author', ['authorId'])
@Index('ix_organizers_name_key', ['nameKey'])
export class OrganizerEntity extends NamedItemColumns {
  @Column({ name: 'phone', type: 'varchar', length: 255, default: '' })
  phone: string;

  @Column({ name: 'website', type: 'text' })
  website: string;

  @Column({ name: 'email', type: 'varchar', length: 255, default: '' })
  email: string;
}
