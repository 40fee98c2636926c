import { Injectable } from '@nestjs/common';
import { invalidParam } from '../common/errors';
import { Hook } from '../common/feature/hooks';
import type { Tx } from '../database/tx';
import type { ItemCheckContext, ItemDeleteContext, ItemWriteContext, RecordExtras } from '../items';
import { type VenueEntity, VENUE_HOOKS, type VenueHook } from '../venues';
import { GEO_MESSAGE } from './geo.errors';
import { VenueGeoEntity } from './venue-geo.entity';
import { VenueGeoRepository } from './venue-geo.repository';

const RANGE = { geo_lat: 90, geo_lng: 180 } as const;
type GeoParam = keyof typeof RANGE;

/** A coordinate as given: absent, "" (clear), a number in range, or invalid. */
type Coordinate = { kind: 'absent' } | { kind: 'clear' } | { kind: 'value'; value: number } | { kind: 'invalid' };

export function readCoordinate(input: Record<string, unknown>, param: GeoParam): Coordinate {
  const raw = input[param];
  if (raw === undefined || raw === null) return { kind: 'absent' };
  if (raw === '') return { kind: 'clear' };
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(value) && Math.abs(value) <= RANGE[param] ? { kind: 'value', value } : { kind: 'invalid' };
}

/**
 * Venue coordinates (geo.md §2.1): `geo_lat`/`geo_lng` on venue writes and nested venues,
 * `geo_lat`/`geo_lng` in the representation when both are non-zero, `geo` in the JSON-LD.
 */
@Hook(VENUE_HOOKS)
@Injectable()
export class GeoVenueHook implements VenueHook {
  readonly params = ['geo_lat', 'geo_lng'] as const;

  constructor(private readonly rows: VenueGeoRepository) {}

  check(input: Record<string, unknown>, ctx: ItemCheckContext<VenueEntity>): Record<string, string> {
    const isCreate = ctx.current === null;
    const lat = readCoordinate(input, 'geo_lat');
    const lng = readCoordinate(input, 'geo_lng');
    const bad: Record<string, string> = {};
    if (lat.kind === 'invalid') bad.geo_lat = GEO_MESSAGE;
    if (lng.kind === 'invalid') bad.geo_lng = GEO_MESSAGE;
    // Both together on create; "" clears both at once (geo.md §2.1).
    if (isCreate && lat.kind === 'value' && lng.kind === 'absent') bad.geo_lng = GEO_MESSAGE;
    if (isCreate && lng.kind === 'value' && lat.kind === 'absent') bad.geo_lat = GEO_MESSAGE;
    if ((lat.kind === 'clear') !== (lng.kind === 'clear') && lat.kind !== 'absent' && lng.kind !== 'absent') {
      bad[lat.kind === 'clear' ? 'geo_lng' : 'geo_lat'] = GEO_MESSAGE;
    }
    return bad;
  }

  async saved(tx: Tx, venue: VenueEntity, ctx: ItemWriteContext<VenueEntity>): Promise<void> {
    const lat = readCoordinate(ctx.input, 'geo_lat');
    const lng = readCoordinate(ctx.input, 'geo_lng');
    if (lat.kind === 'absent' && lng.kind === 'absent') return;
    if (lat.kind === 'clear' || lng.kind === 'clear') {
      await this.rows.remove(tx, venue.id);
      return;
    }
    const current = await this.rows.find(tx, venue.id);
    const next = {
      venueId: venue.id,
      lat: lat.kind === 'value' ? lat.value : current ? Number(current.lat) : undefined,
      lng: lng.kind === 'value' ? lng.value : current ? Number(current.lng) : undefined,
    };
    // An update giving one coordinate to a venue that has none cannot place it.
    if (next.lat === undefined) throw invalidParam('geo_lat', GEO_MESSAGE);
    if (next.lng === undefined) throw invalidParam('geo_lng', GEO_MESSAGE);
    await this.rows.save(tx, next as VenueGeoEntity);
  }

  /** The trash keeps the coordinates (a restored venue has them again); a delete for good takes them away. */
  async deleting(tx: Tx, venue: VenueEntity, ctx: ItemDeleteContext): Promise<void> {
    if (ctx.force) await this.rows.remove(tx, venue.id);
  }

  async present(venues: readonly VenueEntity[]): Promise<Map<number, RecordExtras>> {
    const rows = await this.rows.ofVenues(venues.map((v) => v.id));
    const out = new Map<number, RecordExtras>();
    for (const row of rows) {
      const [latitude, longitude] = [Number(row.lat), Number(row.lng)];
      if (latitude === 0 || longitude === 0) continue; // shown only when both are non-zero
      out.set(row.venueId, {
        fields: { geo_lat: latitude, geo_lng: longitude },
        jsonLd: { geo: { '@type': 'GeoCoordinates', latitude, longitude } },
      });
    }
    return out;
  }
}
