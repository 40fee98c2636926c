import type { LinkedPresentContext } from '../linked-items/linked-items';
import { presentVenue, stateProvince } from './venue.presenter';
import { VenueEntity } from './venue.entity';

const base: VenueEntity = Object.assign(new VenueEntity(), {
  id: 40,
  authorId: 1,
  status: 'publish',
  statusBeforeTrash: null,
  dateUtc: '2025-01-10 09:00:00',
  modifiedUtc: '2025-01-10 09:00:00',
  name: 'River Stage ',
  slug: 'river-stage',
  description: '',
  excerpt: '',
  address: '',
  city: '',
  country: '',
  province: '',
  state: '',
  zip: '',
  phone: '',
  stateprovince: '',
  website: '',
  showMap: false,
  showMapLink: true,
  imageId: null,
});
const ctx: LinkedPresentContext = { baseUrl: 'http://127.0.0.1:3000', timezone: 'UTC', nowUtc: '2025-06-01 00:00:00', jsonLd: false };

describe('presentVenue (spec resources.md §2, §7)', () => {
  it('omits empty keys but always keeps id, show_map, show_map_link and the global ids', () => {
    expect(presentVenue(base, ctx)).toStrictEqual({
      id: 40,
      author: '1',
      status: 'publish',
      date: '2025-01-10 09:00:00',
      date_utc: '2025-01-10 09:00:00',
      modified: '2025-01-10 09:00:00',
      modified_utc: '2025-01-10 09:00:00',
      url: 'http://127.0.0.1:3000/venue/river-stage/',
      venue: 'River Stage',
      slug: 'river-stage',
      show_map: false,
      show_map_link: true,
      global_id: '127.0.0.1?id=40',
      global_id_lineage: ['127.0.0.1?id=40'],
    });
  });

  it('writes every key in the order of §2, json_ld before the map flags; zip "0" counts as empty', () => {
    const full = {
      ...base,
      description: 'Open-air stage.',
      excerpt: 'Short',
      address: '1 Quay Street',
      city: 'Hudson',
      country: 'United States',
      province: 'Ontario',
      state: 'NY',
      zip: '0',
      phone: '+1 518',
      website: 'https://riverstage.example',
      stateprovince: 'NY',
      imageId: 58,
    };
    const json = presentVenue(full, { ...ctx, jsonLd: true, image: { url: 'https://cdn.example.org/s.jpg', id: 58, extension: 'jpg' } });
    expect(Object.keys(json)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'description',
      'excerpt',
      'slug',
      'image',
      'address',
      'city',
      'country',
      'province',
      'state',
      'phone',
      'website',
      'stateprovince',
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(json.description).toBe('<p>Open-air stage.</p>');
    expect(json.json_ld).toStrictEqual({
      '@type': 'Place',
      name: 'River Stage',
      description: 'Short',
      image: 'https://cdn.example.org/s.jpg',
      url: 'http://127.0.0.1:3000/venue/river-stage/',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '1 Quay Street',
        addressLocality: 'Hudson',
        addressRegion: 'NY',
        postalCode: '0',
        addressCountry: 'United States',
      },
      telephone: '+1 518',
      sameAs: 'https://riverstage.example',
    });
  });

  it('reports a scheduled venue whose date has passed as published and shows dates in the site zone', () => {
    const json = presentVenue({ ...base, status: 'future', dateUtc: '2025-05-01 10:00:00' }, { ...ctx, timezone: 'America/New_York' });
    expect(json).toMatchObject({ status: 'publish', date: '2025-05-01 06:00:00', date_utc: '2025-05-01 10:00:00' });
  });
});

describe('stateprovince (spec resources.md §2)', () => {
  const venue = (fields: Partial<VenueEntity>) => Object.assign(new VenueEntity(), base, fields);
  it.each([
    // [country, state, province, stored, expected]
    ['', 'NY', 'Ontario', '', 'NY'],
    ['US', 'NY', '', '', 'NY'],
    ['usa', 'NY', 'x', '', 'NY'],
    [' United States ', 'CA', '', '', 'CA'],
    ['Canada', 'QC', 'Ontario', '', 'Ontario'],
    ['Italy', 'Piemonte', '', '', ''],
    ['Canada', 'QC', 'Ontario', 'Stored', 'Stored'],
  ])('country %j, state %j, province %j, stored %j → %j', (country, state, province, stored, expected) => {
    expect(stateProvince(venue({ country, state, province, stateprovince: stored }))).toBe(expected);
  });

  it('is presented (omitted when empty) and is the JSON-LD region, falling back to state or province', () => {
    const us = presentVenue(venue({ country: 'USA', state: 'NY', province: 'Ontario' }), { ...ctx, jsonLd: true });
    expect(us.stateprovince).toBe('NY');
    expect((us.json_ld as { address: Record<string, string> }).address.addressRegion).toBe('NY');
    const italy = presentVenue(venue({ country: 'Italy', state: 'Piemonte' }), { ...ctx, jsonLd: true });
    expect(italy).not.toHaveProperty('stateprovince');
    expect((italy.json_ld as { address: Record<string, string> }).address.addressRegion).toBe('Piemonte');
    const canada = presentVenue(venue({ country: 'Canada', province: 'Ontario' }), { ...ctx, jsonLd: true });
    expect(canada.stateprovince).toBe('Ontario');
    expect((canada.json_ld as { address: Record<string, string> }).address.addressRegion).toBe('Ontario');
  });
});
