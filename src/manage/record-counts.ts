import { Injectable } from '@nestjs/common';
import { OrganizersRepository } from '../organizers';
import { VenuesRepository } from '../venues';

/**
 * How many events (not in the trash) use each venue or organizer of a list page: one grouped
 * query over the link index for the whole page (the kind's repository), never a scan of the
 * events table per row.
 */
@Injectable()
export class RecordCounts {
  constructor(
    private readonly venues: VenuesRepository,
    private readonly organizers: OrganizersRepository,
  ) {}

  eventCounts(kind: 'venue' | 'organizer', ids: number[]): Promise<Map<number, number>> {
    return (kind === 'venue' ? this.venues : this.organizers).eventCounts(ids);
  }
}
