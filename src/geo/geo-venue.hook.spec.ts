import { DataSource } from 'typeorm';
import { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import type { VenueEntity } from '../venues';
import { newTestService } from '../../test/support/new-test-service';
import { GeoVenueHook, readCoordinate } from './geo-venue.hook';
import { VenueGeoRepository } from './venue-geo.repository';

// Venue coordinates (geo.md §2.1) without a database: the rows live in a map behind a fake
// repository, reached both through a write's transaction and through the pooled data source.

function setup(stored: { venueId: number; lat: string; lng: string }[] = []) {
  const rows = new Map(stored.map((r) => [r.venueId, r]));
  const repo = {
    findOne: jest.fn(async ({ where }: { where: { venueId: number } }) => rows.get(where.venueId) ?? null),
    find: jest.fn(async () => [...rows.values()]),
    save: jest.fn(async (row: { venueId: number; lat: number; lng: number }) => rows.set(row.venueId, { ...row, lat: String(row.lat), lng: String(row.lng) })),
    delete: jest.fn(async ({ venueId }: { venueId: number }) => rows.delete(venueId)),
  };
  const db: Pick<DataSource, 'getRepository'> = { getRepository: () => repo as never };
  const { sut } = newTestService(GeoVenueHook, [{ provide: VenueGeoRepository, useValue: new VenueGeoRepository(db as DataSource) }]);
  // The write's transaction, as far as the extension uses it: the way to the same fake rows.
  // eslint-disable-next-line tx/no-tx-assertion -- no unit of work runs in a unit spec
  const tx = { getRepository: () => repo } as unknown as Tx;
  return { geo: sut, rows, repo, tx };
}

const venue = (id: number) => ({ id }) as VenueEntity;
/** A check on create (no current venue) or on update. */
const onCreate = { actor: null, current: null };
const onUpdate = { actor: null, current: venue(1) };
/** What `saved` is told: the write's raw input. */
const write = (input: Record<string, unknown>) => ({ actor: null, input, before: null, changes: new ChangeSet() });

describe('readCoordinate', () => {
  it.each([
    [undefined, { kind: 'absent' }],
    [null, { kind: 'absent' }],
    ['', { kind: 'clear' }],
    ['48.85', { kind: 'value', value: 48.85 }],
    [' -.5 ', { kind: 'value', value: -0.5 }],
    [90, { kind: 'value', value: 90 }],
    ['90.01', { kind: 'invalid' }],
    ['1e2', { kind: 'invalid' }],
    ['north', { kind: 'invalid' }],
  ])('geo_lat %p is %p', (raw, expected) => {
    expect(readCoordinate({ geo_lat: raw }, 'geo_lat')).toEqual(expected);
  });

  it('a longitude may go to 180', () => {
    expect(readCoordinate({ geo_lng: '-180' }, 'geo_lng')).toEqual({ kind: 'value', value: -180 });
    expect(readCoordinate({ geo_lng: '180.5' }, 'geo_lng')).toEqual({ kind: 'invalid' });
  });
});

describe('GeoVenueHook.check', () => {
  const { geo } = setup();

  it('needs both coordinates on create, one alone on update', () => {
    expect(geo.check({ geo_lat: '1' }, onCreate)).toEqual({ geo_lng: expect.any(String) });
    expect(geo.check({ geo_lng: '1' }, onCreate)).toEqual({ geo_lat: expect.any(String) });
    expect(geo.check({ geo_lat: '1' }, onUpdate)).toEqual({});
  });

  it('clears both at once: "" for one and a value for the other is refused', () => {
    expect(geo.check({ geo_lat: '', geo_lng: '' }, onUpdate)).toEqual({});
    expect(geo.check({ geo_lat: '', geo_lng: '2' }, onUpdate)).toEqual({ geo_lng: expect.any(String) });
  });

  it('names each coordinate out of range', () => {
    expect(Object.keys(geo.check({ geo_lat: '91', geo_lng: '181' }, onCreate)).sort()).toEqual(['geo_lat', 'geo_lng']);
  });
});

describe('GeoVenueHook.saved, present and deleting', () => {
  it('writes nothing when neither coordinate is given', async () => {
    const { geo, repo, tx } = setup();
    await geo.saved(tx, venue(1), write({ venue: 'Hall' }));
    expect(repo.save).not.toHaveBeenCalled();
    expect(repo.delete).not.toHaveBeenCalled();
  });

  it('keeps the stored coordinate an update leaves out, and clears both with ""', async () => {
    const { geo, rows, tx } = setup([{ venueId: 1, lat: '10', lng: '20' }]);
    await geo.saved(tx, venue(1), write({ geo_lat: '11' }));
    expect(rows.get(1)).toEqual({ venueId: 1, lat: '11', lng: '20' });
    await geo.saved(tx, venue(1), write({ geo_lat: '', geo_lng: '' }));
    expect(rows.has(1)).toBe(false);
  });

  it('refuses one coordinate for a venue that has none', async () => {
    const { geo, tx } = setup();
    await expect(geo.saved(tx, venue(2), write({ geo_lat: '11' }))).rejects.toMatchObject({ status: 400 });
  });

  it('presents fields and JSON-LD only when both coordinates are non-zero', async () => {
    const { geo } = setup([
      { venueId: 1, lat: '48.85', lng: '2.35' },
      { venueId: 2, lat: '0', lng: '2.35' },
    ]);
    const shown = await geo.present([venue(1), venue(2)]);
    expect([...shown.keys()]).toEqual([1]);
    expect(shown.get(1)).toEqual({
      fields: { geo_lat: 48.85, geo_lng: 2.35 },
      jsonLd: { geo: { '@type': 'GeoCoordinates', latitude: 48.85, longitude: 2.35 } },
    });
  });

  it('keeps the row when the venue goes to the trash, drops it when the venue goes for good', async () => {
    const { geo, rows, tx } = setup([{ venueId: 3, lat: '1', lng: '1' }]);
    await geo.deleting(tx, venue(3), { actor: null, force: false, changes: new ChangeSet() });
    expect(rows.has(3)).toBe(true);
    await geo.deleting(tx, venue(3), { actor: null, force: true, changes: new ChangeSet() });
    expect(rows.has(3)).toBe(false);
  });
});
