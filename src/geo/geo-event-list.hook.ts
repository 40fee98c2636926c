import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import { Hook } from '../common/feature/hooks';
import { INVALID, toStrictBool } from '../common/params';
import { Dialect } from '../database/dialect';
import { type EventEntity, EVENT_LIST_HOOKS, type EventListHook, type EventQueryExtension } from '../events';
import { boundingBox, DEFAULT_RADIUS_KM, distanceKmSql } from './distance';
import { GEO_MESSAGE } from './geo.errors';
import { VenueGeoEntity } from './venue-geo.entity';

const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;
const toNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : NaN);

/** The validated geo filter of one request. */
export interface GeoFilter {
  /** Only events whose venue has coordinates. */
  located: boolean;
  centre?: { lat: number; lng: number; radiusKm: number };
}

/** Reads geoloc, geoloc_lat, geoloc_lng and geoloc_radius (geo.md §2.2); throws 400 for bad values. */
export function readGeoFilter(query: Record<string, unknown>): GeoFilter | null {
  const bad: Record<string, string> = {};
  let located = false;
  if (query.geoloc !== undefined) {
    const flag = toStrictBool(query.geoloc);
    if (flag === INVALID) bad.geoloc = PARAM_MESSAGES.boolean;
    else located = flag;
  }
  const lat = query.geoloc_lat === undefined ? undefined : toNumber(query.geoloc_lat);
  const lng = query.geoloc_lng === undefined ? undefined : toNumber(query.geoloc_lng);
  if (lat !== undefined && !(Math.abs(lat) <= 90)) bad.geoloc_lat = GEO_MESSAGE;
  if (lng !== undefined && !(Math.abs(lng) <= 180)) bad.geoloc_lng = GEO_MESSAGE;
  // One coordinate without the other names the missing one (geo.md §2.2).
  if (lat !== undefined && lng === undefined) bad.geoloc_lng = GEO_MESSAGE;
  if (lng !== undefined && lat === undefined) bad.geoloc_lat = GEO_MESSAGE;
  let radiusKm = DEFAULT_RADIUS_KM;
  if (query.geoloc_radius !== undefined) {
    radiusKm = toNumber(query.geoloc_radius);
    if (!(radiusKm > 0 && Number.isFinite(radiusKm))) bad.geoloc_radius = 'Must be a number of kilometres greater than 0.';
  }
  if (Object.keys(bad).length > 0) throw invalidParams(bad);
  if (lat !== undefined && lng !== undefined) return { located: true, centre: { lat, lng, radiusKm } };
  return located ? { located } : null;
}

/**
 * GET /events geo filters (geo.md §2.2): events whose venue has coordinates, optionally within
 * a radius of a centre, nearest first. A bounding box on the indexed (lat, lng) columns narrows
 * the rows before the exact great-circle distance is computed.
 */
@Hook(EVENT_LIST_HOOKS)
@Injectable()
export class GeoEventListHook implements EventListHook {
  readonly params = ['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius'] as const;

  constructor(private readonly dialect: Dialect) {}

  prepare(query: Record<string, unknown>): EventQueryExtension | null {
    const filter = readGeoFilter(query);
    if (!filter) return null;
    return (qb: SelectQueryBuilder<EventEntity>) => {
      qb.innerJoin(VenueGeoEntity, 'geo', 'geo.venue_id = e.venue_id');
      if (!filter.centre) return;
      const { lat, lng, radiusKm } = filter.centre;
      const box = boundingBox(lat, lng, radiusKm);
      qb.andWhere('geo.lat BETWEEN :geoMinLat AND :geoMaxLat', { geoMinLat: box.minLat, geoMaxLat: box.maxLat });
      if (box.lng) qb.andWhere('geo.lng BETWEEN :geoMinLng AND :geoMaxLng', { geoMinLng: box.lng.min, geoMaxLng: box.lng.max });
      const distance = distanceKmSql(this.dialect, 'geo.lat', 'geo.lng', 'geoCentre');
      qb.andWhere(`${distance} <= :geoRadius`, { geoCentreLat: lat, geoCentreLng: lng, geoRadius: radiusKm });
      // Nearest first, then the normal event order (added after this by the list).
      qb.addSelect(distance, 'geo_distance').orderBy('geo_distance', 'ASC');
    };
  }
}
