import { DataSource } from 'typeorm';
import { memoryDataSource } from '../database/testing/memory-data-source';
import { SCHEMA } from '../schema';
import { Dialect } from '../database/dialect';
import { EventTermEntity } from '../taxonomies/entities/event-term.entity';
import { EventOrganizerEntity } from '../organizers';
import { eventRow } from '../../test/support/rows';
import { EventEntity } from './entities/event.entity';
import { applyEventFilters, applyEventOrder, EventListFilters, nearestFirst } from './events.filters';
import { searchDocument } from './search-grams';

let ds: DataSource;
let nextId = 1;

/** A published, listed event row with the next id. */
const event = (overrides: Partial<EventEntity>): EventEntity =>
  eventRow(nextId++, { startDate: '2025-06-01 10:00:00', endDate: '2025-06-01 12:00:00', ...overrides });

async function titles(f: Partial<EventListFilters>): Promise<string[]> {
  const qb = applyEventFilters(ds.getRepository(EventEntity).createQueryBuilder('e'), { visibility: { statuses: ['publish'] }, ...f }, Dialect.of(ds));
  const rows = await applyEventOrder(qb, f.include !== undefined).getMany();
  return rows.map((e) => e.title);
}

beforeAll(async () => {
  ds = await memoryDataSource(SCHEMA);
  const repo = ds.getRepository(EventEntity);
  await repo.insert([
    event({ title: 'Jazz by the river', description: 'Live music', startDate: '2025-06-01 19:00:00', endDate: '2025-06-01 22:00:00', venueId: 100 }),
    event({ title: 'Morning yoga', excerpt: 'Bring a mat', startDate: '2025-06-01 07:00:00', endDate: '2025-06-01 08:00:00', featured: true }),
    event({ title: 'Draft concert', status: 'draft', authorId: 7, startDate: '2025-06-02 10:00:00', endDate: '2025-06-02 11:00:00' }),
    event({ title: 'Hidden meetup', hideFromListings: true }),
    event({ title: 'Three-day fair', startDate: '2025-06-03 09:00:00', endDate: '2025-06-05 18:00:00', venueId: 101 }),
    event({ title: '100% off_sale', startDate: '2025-07-01 10:00:00', endDate: '2025-07-01 11:00:00' }),
    event({ title: 'Same start, later publication', startDate: '2025-06-01 07:00:00', endDate: '2025-06-01 07:30:00', dateUtc: '2025-02-01 00:00:00' }),
    event({
      title: 'Scheduled talk',
      status: 'future',
      authorId: 9,
      dateUtc: '2025-05-01 12:00:00',
      startDate: '2025-08-01 10:00:00',
      endDate: '2025-08-01 11:00:00',
    }),
  ]);
  await ds.getRepository(EventTermEntity).insert([
    { eventId: 1, termId: 50, published: true },
    { eventId: 5, termId: 51, published: true },
  ]);
  await ds.getRepository(EventOrganizerEntity).insert([{ eventId: 2, organizerId: 200, position: 0 }]);
  const rows = await repo.find();
  const [sql, params] = Dialect.of(ds).searchWrite(rows.map((e) => ({ id: e.id, document: searchDocument([e.title, e.description, e.excerpt]) })));
  await ds.query(sql, params);
});
afterAll(async () => ds.destroy());

describe('applyEventFilters against real rows (spec endpoints.md §4.1)', () => {
  it('lists visible, listed events by start, publication date, id', async () => {
    expect(await titles({})).toEqual(['Morning yoga', 'Same start, later publication', 'Jazz by the river', 'Three-day fair', '100% off_sale']);
  });

  it('lets an author see their own drafts besides published events', async () => {
    expect(await titles({ visibility: { statuses: ['publish', 'draft'], ownerId: 7 } })).toContain('Draft concert');
    expect(await titles({ visibility: { statuses: ['publish', 'draft'], ownerId: 8 } })).not.toContain('Draft concert');
  });

  it('counts a scheduled event as published once its date has passed, only while dueBefore is set (§3 rule 5)', async () => {
    const talk = (f: Partial<EventListFilters>) => titles({ startFrom: '2025-08-01 00:00:00', ...f });
    expect(await talk({})).toEqual([]);
    expect(await talk({ dueBefore: '2025-04-30 00:00:00' })).toEqual([]);
    expect(await talk({ dueBefore: '2025-05-01 12:00:00' })).toEqual(['Scheduled talk']);
    expect(await talk({ visibility: { statuses: ['future'] } })).toEqual(['Scheduled talk']);
    expect(await talk({ visibility: { statuses: ['future'] }, dueBefore: '2025-05-02 00:00:00' })).toEqual([]);
    // An author sees another's event when it counts as published, whatever statuses they asked for.
    expect(await talk({ visibility: { statuses: ['publish', 'future'], ownerId: 7 } })).toEqual([]);
    expect(await talk({ visibility: { statuses: ['publish', 'future'], ownerId: 7 }, dueBefore: '2025-05-02 00:00:00' })).toEqual(['Scheduled talk']);
  });

  it('keeps events starting on or after the start and ending on or before the end', async () => {
    expect(await titles({ startFrom: '2025-06-01 08:00:00', endTo: '2025-06-04 23:59:59' })).toEqual(['Jazz by the river']);
    expect(await titles({ startFrom: '2025-06-03 00:00:00', endTo: '2025-06-05 23:59:59' })).toEqual(['Three-day fair']);
  });

  it('applies the extra bounds', async () => {
    expect(await titles({ startTo: '2025-06-01 07:00:00' })).toEqual(['Morning yoga', 'Same start, later publication']);
    expect(await titles({ endFrom: '2025-06-05 00:00:00' })).toEqual(['Three-day fair', '100% off_sale']);
  });

  // Candidates: none (LIKE alone), the full-text index, or a list of ids that holds every match.
  describe.each([undefined, 'index' as const, [1, 2, 3, 4, 5, 6, 7]])('search (candidates: %p)', (searchCandidates) => {
    it('searches every word in title, description or excerpt, case-insensitively', async () => {
      expect(await titles({ words: ['JAZZ', 'music'], searchCandidates })).toEqual(['Jazz by the river']);
      expect(await titles({ words: ['mat'], searchCandidates })).toEqual(['Morning yoga']);
      expect(await titles({ words: ['jazz', 'mat'], searchCandidates })).toEqual([]);
      expect(await titles({ words: ['by the riv', 've mus'], searchCandidates })).toEqual(['Jazz by the river']);
    });

    it('treats % and _ in search words literally', async () => {
      expect(await titles({ words: ['100%'], searchCandidates })).toEqual(['100% off_sale']);
      expect(await titles({ words: ['f_s'], searchCandidates })).toEqual(['100% off_sale']);
      expect(await titles({ words: ['0_o'], searchCandidates })).toEqual([]);
    });
  });

  it('takes the candidates of a search from the full-text index or the given ids', async () => {
    // A stale document proves which path ran: the row still matches by LIKE, not by the index.
    const [sql, params] = Dialect.of(ds).searchWrite([{ id: 1, document: '' }]);
    await ds.query(sql, params);
    try {
      expect(await titles({ words: ['jazz'] })).toEqual(['Jazz by the river']);
      expect(await titles({ words: ['jazz'], searchCandidates: 'index' })).toEqual([]);
      // Words under three characters have no trigram: nothing to narrow by, LIKE alone decides.
      expect(await titles({ words: ['jA'], searchCandidates: 'index' })).toEqual(['Jazz by the river']);
      expect(await titles({ words: ['jA'], searchCandidates: [2, 3] })).toEqual([]);
      expect(await titles({ words: ['jA'], searchCandidates: [] })).toEqual([]);
    } finally {
      const [again, values] = Dialect.of(ds).searchWrite([{ id: 1, document: searchDocument(['Jazz by the river', 'Live music', '']) }]);
      await ds.query(again, values);
    }
  });

  it.each(['in', 'exists'] as const)('filters by terms the same way with the %s plan', async (termMatch) => {
    expect(await titles({ categoryIds: [50, 51], termMatch })).toEqual(['Jazz by the river', 'Three-day fair']);
    expect(await titles({ categoryIds: [51], termMatch })).toEqual(['Three-day fair']);
    expect(await titles({ tagIds: [], termMatch })).toEqual([]);
  });

  it('filters by terms, venues, organizers, featured and ids', async () => {
    expect(await titles({ categoryIds: [50, 51] })).toEqual(['Jazz by the river', 'Three-day fair']);
    expect(await titles({ tagIds: [] })).toEqual([]);
    expect(await titles({ venueIds: [101] })).toEqual(['Three-day fair']);
    expect(await titles({ organizerIds: [200] })).toEqual(['Morning yoga']);
    expect(await titles({ featured: false })).not.toContain('Morning yoga');
    expect(await titles({ include: [6, 1] })).toEqual(['Jazz by the river', '100% off_sale']);
  });

  it('never lists hidden events', async () => {
    expect(await titles({ include: [4] })).toEqual([]);
  });
});

describe('nearestFirst', () => {
  const pivot = '2030-06-15 12:00:00';
  const earlier = [
    { id: 3, start: '2030-06-14 12:00:00' },
    { id: 2, start: '2030-06-10 12:00:00' },
    { id: 1, start: '2030-05-20 12:00:00' },
  ];
  const later = [
    { id: 4, start: '2030-06-15 12:00:00' },
    { id: 5, start: '2030-06-16 12:00:00' },
    { id: 6, start: '2030-07-30 12:00:00' },
  ];

  it.each([
    [6, [1, 2, 3, 4, 5, 6]],
    [4, [2, 3, 4, 5]],
    // 3 (a day before) and 5 (a day after) tie: the later one goes first
    [2, [4, 5]],
    [3, [3, 4, 5]],
    [1, [4]],
    [0, []],
  ])('keeps the %i nearest, in list order', (limit, ids) => expect(nearestFirst(earlier, later, pivot, limit)).toEqual(ids));

  it('takes from one side when the other is empty', () => {
    expect(nearestFirst(earlier, [], pivot, 2)).toEqual([2, 3]);
    expect(nearestFirst([], later, pivot, 2)).toEqual([4, 5]);
  });
});
