import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import type { Tx } from '../database/tx';
import type { WriteParticipant } from '../database/write-participants';
import { EventsRepository, EventWriter } from '../events';
import type { LinkedItemWrites } from '../linked-items';
import { ORGANIZER_TOKENS, OrganizerEntity, OrganizersRepository } from '../organizers';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenueEntity, VenuesRepository } from '../venues';
import type { ImportKind } from './imported-record.entity';

type Input = Record<string, unknown>;

/**
 * The local record of each kind an import writes, reached through the feature that owns it:
 * created and updated by the services the routes call (sanitising, slugs, term counts, caches
 * and change rows included), whether it exists or is in the trash, and its modified date. What
 * to write, and the mapping to the source, are ImportWriter's.
 */
@Injectable()
export class LocalRecords {
  constructor(
    private readonly events: EventWriter,
    @Inject(VENUE_TOKENS.writes) private readonly venues: LinkedItemWrites<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.writes) private readonly organizers: LinkedItemWrites<OrganizerEntity>,
    private readonly terms: TermsService,
    private readonly posts: PostsService,
    private readonly eventRows: EventsRepository,
    private readonly venueRows: VenuesRepository,
    private readonly organizerRows: OrganizersRepository,
  ) {}

  /** `participants`: declared for the write's unit of work, which runs them with what it stored. */
  async create(actor: Actor, kind: ImportKind, dto: object, raw: Input, participants: WriteParticipant[]): Promise<unknown> {
    switch (kind) {
      case 'event':
        // The raw input too: extensions' own write fields (a series' `recurrence`) reach their hooks.
        return this.events.create(actor, dto, raw, { kind: 'import', participants });
      case 'venue':
        return this.venues.create(actor, dto, raw, participants);
      case 'organizer':
        return this.organizers.create(actor, dto, raw, participants);
      case 'category':
      case 'tag':
        return this.terms.create(actor, kind, dto, participants);
    }
  }

  async update(actor: Actor, kind: ImportKind, id: number, dto: object, raw: Input, participants: WriteParticipant[]): Promise<unknown> {
    switch (kind) {
      case 'event':
        return this.events.updateById(actor, id, dto, undefined, raw, { kind: 'import', participants });
      case 'venue':
        return this.venues.update(actor, { id }, dto, raw, undefined, participants);
      case 'organizer':
        return this.organizers.update(actor, { id }, dto, raw, undefined, participants);
      case 'category':
      case 'tag':
        return this.terms.update(actor, kind, id, dto, undefined, participants);
    }
  }

  /** Whether the record `id` exists, as a record of `kind`. */
  async exists(kind: ImportKind, id: number): Promise<boolean> {
    if (kind === 'category' || kind === 'tag') {
      try {
        await this.terms.get(kind, id);
        return true;
      } catch (err) {
        if (err instanceof WpError) return false;
        throw err;
      }
    }
    return (await this.posts.typeOf(id)) === kind;
  }

  /** Whether the record is in the trash (terms have none). */
  async inTrash(kind: ImportKind, id: number): Promise<boolean> {
    const rows = this.rowsOf(kind);
    return rows !== undefined && (await rows.findById(id))?.status === 'trash';
  }

  /** Sets the record's `modified_utc` inside the write's transaction (a kind without one is left as it is). */
  async setModifiedUtc(kind: ImportKind, id: number, modifiedUtc: string, tx: Tx): Promise<void> {
    await this.rowsOf(kind)?.setModifiedUtc(id, modifiedUtc, tx);
  }

  /** The repository of a kind whose rows carry a status and `modified_utc`. */
  private rowsOf(kind: ImportKind): EventsRepository | VenuesRepository | OrganizersRepository | undefined {
    switch (kind) {
      case 'event':
        return this.eventRows;
      case 'venue':
        return this.venueRows;
      case 'organizer':
        return this.organizerRows;
      default:
        return undefined;
    }
  }
}
