import type { Dialect } from '../database/dialect';

/** Mean Earth radius used by the geo extension (geo.md §2.2). */
export const EARTH_RADIUS_KM = 6371.0;
/** Default geofence: 25 miles. */
export const DEFAULT_RADIUS_KM = 40.2335;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (haversine) distance in kilometres. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The great-circle distance in km, in SQL, between the row's `latExpr`/`lngExpr` and the point
 * bound to `:{prefix}Lat`/`:{prefix}Lng`: haversineKm's formula, its arcsine argument capped at
 * 1 against rounding as there.
 */
export function distanceKmSql(dialect: Dialect, latExpr: string, lngExpr: string, prefix: string): string {
  const half = (expr: string) => `SIN(RADIANS(${expr}) / 2)`;
  const dLat = half(`${latExpr} - :${prefix}Lat`);
  const dLng = half(`${lngExpr} - :${prefix}Lng`);
  const a = `${dLat} * ${dLat} + COS(RADIANS(:${prefix}Lat)) * COS(RADIANS(${latExpr})) * ${dLng} * ${dLng}`;
  return `(2 * ${EARTH_RADIUS_KM.toFixed(1)} * ASIN(${dialect.least('1', `SQRT(${a})`)}))`;
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  /** Absent when the box would cross a pole or the antimeridian: then longitude is not prefiltered. */
  lng?: { min: number; max: number };
}

/**
 * A box that contains every point within `radiusKm` of the centre, for an index range scan
 * before the exact distance is computed. Latitude degrees are ~111.19 km everywhere; a
 * longitude degree shrinks with cos(latitude), taken at the box edge nearest a pole.
 */
export function boundingBox(lat: number, lng: number, radiusKm: number): BoundingBox {
  const kmPerDegree = (2 * Math.PI * EARTH_RADIUS_KM) / 360;
  const dLat = radiusKm / kmPerDegree;
  const minLat = lat - dLat;
  const maxLat = lat + dLat;
  if (minLat <= -90 || maxLat >= 90) return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90) };
  const widest = Math.cos(rad(Math.max(Math.abs(minLat), Math.abs(maxLat))));
  const dLng = radiusKm / (kmPerDegree * widest);
  if (lng - dLng < -180 || lng + dLng > 180) return { minLat, maxLat };
  return { minLat, maxLat, lng: { min: lng - dLng, max: lng + dLng } };
}
