import { boundingBox, DEFAULT_RADIUS_KM, haversineKm } from './distance';

describe('haversineKm (Earth radius 6371.0 km)', () => {
  it.each([
    // [from, to, lat1, lng1, lat2, lng2, km]
    ['Paris', 'London', 48.8566, 2.3522, 51.5074, -0.1278, 343.56],
    ['New York', 'Los Angeles', 40.7128, -74.006, 34.0522, -118.2437, 3935.75],
    ['Sydney', 'Melbourne', -33.8688, 151.2093, -37.8136, 144.9631, 713.44],
    // exact on a sphere of radius 6371.0: R·π/180, R·π/2, R·π
    ['0°,0°', '0°,1°', 0, 0, 0, 1, 111.19],
    ['the equator', 'the North Pole', 0, 30, 90, 0, 10007.54],
    ['0°,0°', 'its antipode', 0, 0, 0, 180, 20015.09],
  ])('%s – %s', (_a, _b, lat1, lng1, lat2, lng2, km) => {
    expect(haversineKm(lat1 as number, lng1 as number, lat2 as number, lng2 as number)).toBeCloseTo(km as number, 0);
  });

  it('is zero for the same point and symmetric', () => {
    expect(haversineKm(10, 20, 10, 20)).toBe(0);
    expect(haversineKm(1, 2, 3, 4)).toBeCloseTo(haversineKm(3, 4, 1, 2), 10);
  });
});

describe('boundingBox', () => {
  it('contains every point of the circle', () => {
    for (const [lat, lng] of [
      [48.85, 2.35],
      [-33.87, 151.21],
      [64.1, -21.9],
    ]) {
      const box = boundingBox(lat, lng, DEFAULT_RADIUS_KM);
      for (let bearing = 0; bearing < 360; bearing += 15) {
        // a point on the circle, 0.1% inside it
        const d = (DEFAULT_RADIUS_KM * 0.999) / 6371.0;
        const b = (bearing * Math.PI) / 180;
        const la1 = (lat * Math.PI) / 180;
        const lo1 = (lng * Math.PI) / 180;
        const la2 = Math.asin(Math.sin(la1) * Math.cos(d) + Math.cos(la1) * Math.sin(d) * Math.cos(b));
        const lo2 = lo1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(la1), Math.cos(d) - Math.sin(la1) * Math.sin(la2));
        const [pLat, pLng] = [(la2 * 180) / Math.PI, (lo2 * 180) / Math.PI];
        expect(pLat).toBeGreaterThanOrEqual(box.minLat);
        expect(pLat).toBeLessThanOrEqual(box.maxLat);
        expect(pLng).toBeGreaterThanOrEqual(box.lng!.min);
        expect(pLng).toBeLessThanOrEqual(box.lng!.max);
      }
    }
  });

  it('drops the longitude prefilter across the antimeridian and near the poles', () => {
    expect(boundingBox(0, 179.9, 100).lng).toBeUndefined();
    expect(boundingBox(89.9, 0, 100)).toEqual({ minLat: expect.any(Number), maxLat: 90 });
  });
});
