import { DataSource } from 'typeorm';
import { Dialect } from '../database/dialect';
import { memoryDataSource } from '../database/testing/memory-data-source';
import { SCHEMA } from '../schema';
import { distanceKmSql, haversineKm } from './distance';

let ds: DataSource;
beforeAll(async () => {
  ds = await memoryDataSource(SCHEMA);
});
afterAll(async () => ds.destroy());

describe('distanceKmSql agrees with haversineKm', () => {
  it.each([
    [48.8566, 2.3522, 51.5074, -0.1278],
    [40.7128, -74.006, 34.0522, -118.2437],
    [0, 0, 0, 180],
    [10, 20, 10, 20],
  ])('(%f, %f) – (%f, %f)', async (lat1, lng1, lat2, lng2) => {
    const sql = distanceKmSql(Dialect.of(ds), ':rowLat', ':rowLng', 'c');
    const [query, params] = ds.driver.escapeQueryWithParameters(`SELECT ${sql} AS d`, { rowLat: lat2, rowLng: lng2, cLat: lat1, cLng: lng1 }, {});
    const [row] = (await ds.query(query, params)) as { d: number }[];
    expect(row.d).toBeCloseTo(haversineKm(lat1, lng1, lat2, lng2), 6);
  });
});
