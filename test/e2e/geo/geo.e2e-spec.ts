import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, queryOf } from '../../support/http';
import { expectError, expectInvalidParams } from '../../support/expect';

const WINDOW = 'start_date=2030-01-01&end_date=2030-12-31';
const PARIS = { lat: 48.8566, lng: 2.3522 };
// Distances from central Paris: Versailles ~17 km, Chartres ~79 km, London ~344 km.
const PLACES = {
  louvre: { geo_lat: 48.8606, geo_lng: 2.3376 },
  versailles: { geo_lat: 48.8049, geo_lng: 2.1204 },
  chartres: { geo_lat: 48.4439, geo_lng: 1.489 },
  london: { geo_lat: 51.5074, geo_lng: -0.1278 },
};

describe('geo extension ON (geo.md §2)', () => {
  let t: TestApp;
  let admin: string;
  const venueIds: Record<string, number> = {};
  const eventIds: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_GEO: 'on' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
    for (const [name, coords] of Object.entries(PLACES)) {
      const res = await http(t, admin)
        .post(`${API}/venues`)
        .send({ venue: `Venue ${name}`, ...coords });
      expect(res.status).toBe(201);
      venueIds[name] = res.body.id;
    }
    const plain = await http(t, admin).post(`${API}/venues`).send({ venue: 'No coordinates' });
    venueIds.plain = plain.body.id;
    const events: [string, string, number | undefined][] = [
      ['at-chartres', '2030-05-01 10:00:00', venueIds.chartres],
      ['at-louvre', '2030-05-03 10:00:00', venueIds.louvre],
      ['at-versailles', '2030-05-02 10:00:00', venueIds.versailles],
      ['at-london', '2030-05-01 09:00:00', venueIds.london],
      ['at-plain', '2030-05-01 08:00:00', venueIds.plain],
      ['no-venue', '2030-05-01 07:00:00', undefined],
      ['louvre-later', '2030-06-01 10:00:00', venueIds.louvre],
    ];
    for (const [title, start, venue] of events) {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({ title, start_date: start, end_date: start, ...(venue ? { venue } : {}), ...(title === 'louvre-later' ? { featured: true } : {}) });
      expect(res.status).toBe(201);
      eventIds[title] = res.body.id;
    }
  });
  afterAll(async () => t.close());

  const titles = async (query: string) => {
    const res = await http(t).get(`${API}/events?${WINDOW}&${query}`);
    expect(res.status).toBe(200);
    return res.body.events.map((e: { title: string }) => e.title);
  };

  describe('venue coordinates', () => {
    it('are shown after stateprovince, as numbers, and in the JSON-LD of single reads', async () => {
      const res = await http(t).get(`${API}/venues/${venueIds.louvre}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ geo_lat: 48.8606, geo_lng: 2.3376 });
      // No address fields: geo_lat/geo_lng follow the slug, where stateprovince would be (resources.md §2, geo.md §2.1).
      const keys = Object.keys(res.body);
      expect(keys.slice(keys.indexOf('venue'), keys.indexOf('venue') + 6)).toEqual(['venue', 'slug', 'geo_lat', 'geo_lng', 'json_ld', 'show_map']);
      expect(res.body.json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 48.8606, longitude: 2.3376 });
      expect(Object.keys(res.body.json_ld)).toEqual(['@type', 'name', 'description', 'url', 'address', 'geo', 'telephone', 'sameAs']);
    });

    it('are embedded with the venue in events', async () => {
      const res = await http(t).get(`${API}/events/${eventIds['at-versailles']}`);
      expect(res.body.venue).toMatchObject({ geo_lat: 48.8049, geo_lng: 2.1204 });
      expect(res.body.json_ld.location.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 48.8049, longitude: 2.1204 });
    });

    it('are absent for a venue without them', async () => {
      const res = await http(t).get(`${API}/venues/${venueIds.plain}`);
      expect(res.body).not.toHaveProperty('geo_lat');
      expect(res.body.json_ld).not.toHaveProperty('geo');
    });

    it('accept numeric strings and form bodies', async () => {
      const res = await http(t, admin).post(`${API}/venues`).type('form').send('venue=Form+geo&geo_lat=-33.8688&geo_lng=151.2093');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ geo_lat: -33.8688, geo_lng: 151.2093 });
    });

    it.each([
      [{ geo_lat: 91, geo_lng: 0 }, ['geo_lat']],
      [{ geo_lat: 10, geo_lng: -180.5 }, ['geo_lng']],
      [{ geo_lat: 'north', geo_lng: 'east' }, ['geo_lat', 'geo_lng']],
      [{ geo_lat: 10 }, ['geo_lng']],
      [{ geo_lng: 10 }, ['geo_lat']],
    ])('refuses %p on create', async (coords, params) => {
      const res = await http(t, admin)
        .post(`${API}/venues`)
        .send({ venue: `Bad ${JSON.stringify(coords)}`, ...coords });
      expectInvalidParams(res, ...params);
    });

    it('change one coordinate alone on update, and clear both with ""', async () => {
      const made = await http(t, admin).post(`${API}/venues`).send({ venue: 'Movable', geo_lat: 10, geo_lng: 20 });
      const moved = await http(t, admin).patch(`${API}/venues/${made.body.id}`).send({ geo_lng: 21.5 });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ geo_lat: 10, geo_lng: 21.5 });
      const cleared = await http(t, admin).patch(`${API}/venues/${made.body.id}`).send({ geo_lat: '', geo_lng: '' });
      expect(cleared.status).toBe(200);
      expect(cleared.body).not.toHaveProperty('geo_lat');
      // Without coordinates, one alone cannot place the venue: the missing one is named.
      const lone = await http(t, admin).patch(`${API}/venues/${made.body.id}`).send({ geo_lat: 5 });
      expectInvalidParams(lone, 'geo_lng');
    });

    it('are accepted on venues nested in event writes, and validated there', async () => {
      const ok = await http(t, admin)
        .post(`${API}/events`)
        .send({
          title: 'Nested geo',
          start_date: '2031-01-01 10:00',
          end_date: '2031-01-01 11:00',
          venue: { venue: 'Nested place', geo_lat: 1.5, geo_lng: 2.5 },
        });
      expect(ok.status).toBe(201);
      expect(ok.body.venue).toMatchObject({ venue: 'Nested place', geo_lat: 1.5, geo_lng: 2.5 });
      const bad = await http(t, admin)
        .post(`${API}/events`)
        .send({
          title: 'Nested bad geo',
          start_date: '2031-01-01 10:00',
          end_date: '2031-01-01 11:00',
          venue: { venue: 'Bad place', geo_lat: 100, geo_lng: 2 },
        });
      expectInvalidParams(bad, 'venue');
    });
  });

  describe('event list filters', () => {
    it('geoloc=true keeps events whose venue has coordinates, in the normal order', async () => {
      expect(await titles('geoloc=true')).toEqual(['at-london', 'at-chartres', 'at-versailles', 'at-louvre', 'louvre-later']);
      expect(await titles('geoloc=false')).toHaveLength(7);
    });

    it('a centre keeps events within 25 miles, nearest first, then by start', async () => {
      expect(await titles(`geoloc_lat=${PARIS.lat}&geoloc_lng=${PARIS.lng}`)).toEqual(['at-louvre', 'louvre-later', 'at-versailles']);
    });

    it('geoloc_radius (km) widens or narrows the circle', async () => {
      expect(await titles(`geoloc_lat=${PARIS.lat}&geoloc_lng=${PARIS.lng}&geoloc_radius=100`)).toEqual([
        'at-louvre',
        'louvre-later',
        'at-versailles',
        'at-chartres',
      ]);
      expect(await titles(`geoloc_lat=${PARIS.lat}&geoloc_lng=${PARIS.lng}&geoloc_radius=5`)).toEqual(['at-louvre', 'louvre-later']);
      // From London: Versailles ~339.5 km, the Louvre ~341.7 km, Chartres ~358.8 km.
      expect(await titles(`geoloc_lat=51.5&geoloc_lng=-0.12&geoloc_radius=1000`)).toEqual([
        'at-london',
        'at-versailles',
        'at-louvre',
        'louvre-later',
        'at-chartres',
      ]);
    });

    it('combines with other filters and with pagination, and rest_url keeps the geo parameters', async () => {
      expect(await titles(`geoloc_lat=${PARIS.lat}&geoloc_lng=${PARIS.lng}&featured=true`)).toEqual(['louvre-later']);
      const page = await http(t).get(`${API}/events?${WINDOW}&geoloc_lat=${PARIS.lat}&geoloc_lng=${PARIS.lng}&per_page=2&page=2`);
      expect(page.status).toBe(200);
      expect(page.body.events.map((e: { title: string }) => e.title)).toEqual(['at-versailles']);
      expect(page.body.total).toBe(3);
      expect(queryOf(page.body.rest_url)).toMatchObject({ geoloc_lat: String(PARIS.lat), geoloc_lng: String(PARIS.lng), page: '2' });
      expect(queryOf(page.body.previous_rest_url)).toMatchObject({ geoloc_lat: String(PARIS.lat) });
    });

    it('one coordinate without the other names the missing one', async () => {
      expectInvalidParams(await http(t).get(`${API}/events?geoloc_lat=48.8`), 'geoloc_lng');
      expectInvalidParams(await http(t).get(`${API}/events?geoloc_lng=2.3`), 'geoloc_lat');
    });

    it.each([
      ['geoloc=maybe', 'geoloc'],
      ['geoloc_lat=95&geoloc_lng=2', 'geoloc_lat'],
      ['geoloc_lat=45&geoloc_lng=east', 'geoloc_lng'],
      ['geoloc_lat=45&geoloc_lng=2&geoloc_radius=0', 'geoloc_radius'],
    ])('refuses %s', async (query, param) => {
      expectInvalidParams(await http(t).get(`${API}/events?${query}`), param);
    });
  });
});

describe('geo extension OFF (geo.md §1)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_GEO: 'off' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it.each([
    ['geoloc=true', ['geoloc']],
    ['geoloc=false', ['geoloc']],
    ['geoloc=', ['geoloc']],
    ['geoloc_lat=1&geoloc_lng=2', ['geoloc_lat', 'geoloc_lng']],
    ['geoloc_lng=2', ['geoloc_lng']],
  ])('refuses %s with geo-extension-disabled', async (query, params) => {
    const res = await http(t).get(`${API}/events?${query}`);
    expectError(res, 400, 'geo-extension-disabled');
    expect(res.body).toEqual({
      code: 'geo-extension-disabled',
      message: 'Geographic filters are not enabled on this server.',
      data: { status: 400, params },
    });
  });

  it('ignores coordinates on venue writes and never shows them', async () => {
    const res = await http(t, admin).post(`${API}/venues`).send({ venue: 'Flat place', geo_lat: 999, geo_lng: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('geo_lat');
    const read = await http(t).get(`${API}/venues/${res.body.id}`);
    expect(read.body).not.toHaveProperty('geo_lat');
    expect(read.body.json_ld).not.toHaveProperty('geo');
  });
});
