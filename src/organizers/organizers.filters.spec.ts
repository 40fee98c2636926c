import { DataSource } from 'typeorm';
import { applyLinkedItemFilters, LinkedItemListFilters } from '../linked-items/linked-items';
import { Dialect } from '../database/dialect';
import { memoryDataSource } from '../database/testing/memory-data-source';
import { SCHEMA } from '../schema';
import { EventOrganizerEntity } from './event-organizer.entity';
import { EventEntity } from '../events/entities/event.entity';
import { eventRow, linkedItemRow } from '../../test/support/rows';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_QUERY } from './organizers.filters';
import { ORGANIZER_KIND } from './organizer-kind';

const NOW = '2025-06-01 12:00:00';
let ds: DataSource;

const organizer = (id: number, overrides: Partial<OrganizerEntity>): OrganizerEntity =>
  Object.assign(new OrganizerEntity(), { ...linkedItemRow(id), ...ORGANIZER_KIND.defaults, ...overrides });

const event = (id: number, status: string, startDateUtc: string) => eventRow(id, { status, startDateUtc });

async function ids(f: Partial<LinkedItemListFilters>): Promise<number[]> {
  const qb = ds.getRepository(OrganizerEntity).createQueryBuilder('o');
  applyLinkedItemFilters(qb, ORGANIZER_QUERY, { visibility: { statuses: ['publish'] }, nowUtc: NOW, ...f }, Dialect.of(ds));
  return (await qb.orderBy('o.id', 'ASC').getMany()).map((o) => o.id);
}

beforeAll(async () => {
  ds = await memoryDataSource(SCHEMA);
  await ds
    .getRepository(OrganizerEntity)
    .insert([
      organizer(1, { name: 'Hudson Arts', email: 'info@hudsonarts.example', website: 'https://hudsonarts.example' }),
      organizer(2, { name: 'Jazz Club', phone: '+1 555 0100', excerpt: 'Weekly sessions' }),
      organizer(3, { name: 'Nobody' }),
    ]);
  await ds
    .getRepository(EventEntity)
    .insert([event(10, 'publish', '2025-07-01 00:00:00'), event(11, 'publish', '2025-01-01 00:00:00'), event(12, 'trash', '2025-07-01 00:00:00')]);
  await ds.getRepository(EventOrganizerEntity).insert([
    { eventId: 10, organizerId: 1, position: 0 },
    { eventId: 10, organizerId: 2, position: 1 },
    { eventId: 11, organizerId: 2, position: 0 },
    { eventId: 12, organizerId: 3, position: 0 },
  ]);
});
afterAll(async () => ds.destroy());

describe('organizer list filters against real rows (spec endpoints.md §5.1)', () => {
  it('searches name, description, excerpt, phone, email and website', async () => {
    expect(await ids({ search: ['hudsonarts', 'info'] })).toEqual([1]);
    expect(await ids({ search: ['https', 'example'] })).toEqual([1]);
    expect(await ids({ search: ['555'] })).toEqual([2]);
    expect(await ids({ search: ['weekly'] })).toEqual([2]);
    expect(await ids({ search: ['jazz', 'weekly'] })).toEqual([]);
  });

  it('follows event_organizers for event, has_events and only_with_upcoming; each organizer once', async () => {
    expect(await ids({ eventId: 10 })).toEqual([1, 2]);
    expect(await ids({ eventId: 11 })).toEqual([2]);
    expect(await ids({ hasEvents: true })).toEqual([1, 2]);
    expect(await ids({ hasEvents: false })).toEqual([3]);
    expect(await ids({ upcomingStatuses: ['publish'] })).toEqual([1, 2]);
    expect(await ids({ upcomingStatuses: ['publish'], nowUtc: '2025-08-01 00:00:00' })).toEqual([]);
  });
});
