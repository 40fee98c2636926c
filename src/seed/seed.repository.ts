import { DataSource, In, Not } from 'typeorm';
import { Dialect } from '../database/dialect';
import { EventEntity } from '../events';
import { OrganizerEntity } from '../organizers';
import { UserEntity } from '../users';
import { VenueEntity } from '../venues';

/** The reads `seed` needs before it writes: is the database empty, who authors, which slugs are taken. */
export class SeedRepository {
  constructor(private readonly db: DataSource) {}

  countEvents(): Promise<number> {
    return this.db.getRepository(EventEntity).count();
  }

  /** Users who may publish, oldest first. */
  async publisherIds(): Promise<number[]> {
    const users = await this.db
      .getRepository(UserEntity)
      .find({ where: { role: In(['administrator', 'editor']) }, select: { id: true }, order: { id: 'ASC' } });
    return users.map((u) => u.id);
  }

  /** Refreshes the planner's statistics of these tables (after the load: Dialect.analyzeStatement). */
  async analyze(tables: string[]): Promise<void> {
    await this.db.query(Dialect.of(this.db).analyzeStatement(tables));
  }

  /** Slugs of the kind's items that are not in the trash (new items must not reuse them, spec endpoints.md §4.6). */
  async liveSlugs(kind: 'event' | 'venue' | 'organizer'): Promise<string[]> {
    const entity = { event: EventEntity, venue: VenueEntity, organizer: OrganizerEntity }[kind];
    const rows = await this.db.getRepository<{ slug: string; status: string }>(entity).find({
      where: { status: Not('trash') },
      select: { slug: true },
    });
    return rows.map((r) => r.slug);
  }
}
