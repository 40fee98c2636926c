import { DataSource } from 'typeorm';
import { applyLinkedItemFilters, LinkedItemListFilters, searchFragments } from '../linked-items/linked-items';
import { Dialect } from '../database/dialect';
import { memoryDataSource } from '../database/testing/memory-data-source';
import { SCHEMA } from '../schema';
import { EventEntity } from '../events/entities/event.entity';
import { eventRow, linkedItemRow } from '../../test/support/rows';
import { VenueEntity } from './venue.entity';
import { VENUE_QUERY } from './venues.filters';
import { VENUE_KIND } from './venue-kind';

const NOW = '2025-06-01 12:00:00';
let ds: DataSource;
let nextId = 1;

const venue = (overrides: Partial<VenueEntity>): VenueEntity =>
  Object.assign(new VenueEntity(), { ...linkedItemRow(nextId++), ...VENUE_KIND.defaults, ...overrides });

const event = (venueId: number, status: string, startDateUtc: string, dateUtc = '2025-01-01 00:00:00') =>
  eventRow(nextId++, { venueId, status, startDateUtc, dateUtc });

async function names(f: Partial<LinkedItemListFilters>): Promise<string[]> {
  const qb = ds.getRepository(VenueEntity).createQueryBuilder('v');
  applyLinkedItemFilters(qb, VENUE_QUERY, { visibility: { statuses: ['publish'] }, nowUtc: NOW, ...f }, Dialect.of(ds));
  return (await qb.orderBy('v.id', 'ASC').getMany()).map((v) => v.name);
}

beforeAll(async () => {
  ds = await memoryDataSource(SCHEMA);
  await ds
    .getRepository(VenueEntity)
    .insert([
      venue({ name: 'Temple Hall', address: '12 Temple Avenue', phone: '+33 1 555' }),
      venue({ name: 'Temple Annex', city: 'Avenue Town', zip: '75001' }),
      venue({ name: 'Riverside', description: 'By the <b>river</b>, ile-de-france', stateprovince: 'IDF' }),
      venue({ name: 'Draft by 7', status: 'draft', authorId: 7 }),
      venue({ name: 'Draft by 8', status: 'draft', authorId: 8 }),
      venue({ name: 'Scheduled, date passed', status: 'future', dateUtc: '2025-05-01 00:00:00' }),
      venue({ name: 'Scheduled ahead', status: 'future', dateUtc: '2025-12-01 00:00:00' }),
      venue({ name: '100% off_sale' }),
    ]);
  await ds.getRepository(EventEntity).insert([
    event(1, 'publish', '2025-07-01 10:00:00'), // Temple Hall: upcoming
    event(2, 'publish', '2025-01-01 10:00:00'), // Temple Annex: past only
    event(3, 'draft', '2025-07-01 10:00:00'), // Riverside: draft only
    event(3, 'trash', '2025-07-01 10:00:00'),
    event(8, 'private', '2025-07-01 10:00:00'), // 100% off_sale: private upcoming
    event(8, 'future', '2025-07-01 10:00:00', '2025-05-01 00:00:00'), // scheduled, date passed → publish
  ]);
});
afterAll(async () => ds.destroy());

describe('searchFragments (spec endpoints.md §5.1.1)', () => {
  it.each([
    ['temple avenue', ['temple', 'avenue']],
    ['france, ile de', ['france', 'ile', 'de']],
    ['ile-de-france', ['ile-de-france']],
    ['  café/bar ', ['café', 'bar']],
    ['50%', ['50']],
    ['!!!', []],
  ])('%p → %p', (text, fragments) => expect(searchFragments(text)).toEqual(fragments));
});

describe('venue list filters against real rows', () => {
  it('search: one single field must contain every fragment, case-insensitively', async () => {
    expect(await names({ search: ['temple', 'AVENUE'] })).toEqual(['Temple Hall']);
    expect(await names({ search: ['temple'] })).toEqual(['Temple Hall', 'Temple Annex']);
    expect(await names({ search: ['avenue'] })).toEqual(['Temple Hall', 'Temple Annex']);
    expect(await names({ search: ['75001'] })).toEqual(['Temple Annex']);
    expect(await names({ search: ['555'] })).toEqual(['Temple Hall']);
    expect(await names({ search: ['river', 'ile-de-france'] })).toEqual(['Riverside']);
    expect(await names({ search: ['idf'] })).toEqual(['Riverside']);
    expect(await names({ search: ['100%', 'off_'] })).toEqual(['100% off_sale']);
    expect(await names({ search: ['0%'] })).toEqual(['100% off_sale']);
    expect(await names({ search: ['hall', 'annex'] })).toEqual([]);
  });

  it('visibility: statuses asked for, scheduled items past their date count as published (§3 rule 5)', async () => {
    expect(await names({})).toEqual(['Temple Hall', 'Temple Annex', 'Riverside', 'Scheduled, date passed', '100% off_sale']);
    expect(await names({ visibility: { statuses: ['future'] } })).toEqual(['Scheduled ahead']);
    expect(await names({ visibility: { statuses: ['draft'] } })).toEqual(['Draft by 7', 'Draft by 8']);
    expect(await names({ visibility: { statuses: ['draft'], ownerId: 7 } })).toEqual(['Draft by 7']);
    expect(await names({ visibility: { statuses: ['draft', 'publish'], ownerId: 7 }, search: ['draft'] })).toEqual(['Draft by 7']);
  });

  it('event: only the venue of that event', async () => {
    expect(await names({ eventId: 9 })).toEqual(['Temple Hall']);
    expect(await names({ eventId: 11 })).toEqual(['Riverside']);
  });

  it('has_events: linked to a publish/future/private event (trashed and drafts do not count)', async () => {
    expect(await names({ hasEvents: true })).toEqual(['Temple Hall', 'Temple Annex', '100% off_sale']);
    expect(await names({ hasEvents: false })).toEqual(['Riverside', 'Scheduled, date passed']);
  });

  it('only_with_upcoming: an event starting now or later in one of the given statuses', async () => {
    expect(await names({ upcomingStatuses: ['publish'] })).toEqual(['Temple Hall', '100% off_sale']);
    expect(await names({ upcomingStatuses: ['publish'], nowUtc: '2025-04-01 00:00:00' })).toEqual(['Temple Hall']);
    expect(await names({ upcomingStatuses: ['publish', 'private'], hasEvents: true })).toEqual(['Temple Hall', '100% off_sale']);
  });
});
