import type { LinkedItemEntity } from '../linked-items';
import { conflictRows, type LoadedRecord, postedValues, storedValues, writeInput } from './record-form-values';
import { VENUE_PAGES } from './venues.controller';

// The venue form's values without HTTP: what a save sends to the API, and what a conflict shows.

const kind = VENUE_PAGES;

const record: LoadedRecord = {
  id: 7,
  entity: { name: 'Hall', description: 'Big', slug: 'hall', authorId: 1, status: 'publish', showMap: true } as unknown as LinkedItemEntity,
  json: { status: 'publish', date: '2026-05-01 10:00:00', city: 'Paris', geo_lat: 48.8 },
  version: 'v1',
};
const extensions = ['geo_lat'];

describe('the venue form', () => {
  it('a form saved untouched sends only its texts and flags: no slug, status, author, date or extension field', () => {
    const values = storedValues(kind, extensions, record);
    const input = writeInput(kind, extensions, values, record);
    expect(input).toMatchObject({ venue: 'Hall', description: 'Big', city: 'Paris', address: '', show_map: true, show_map_link: false });
    expect(Object.keys(input).filter((k) => ['slug', 'status', 'author', 'date', 'image', 'geo_lat'].includes(k))).toEqual([]);
  });

  it('a new date goes with the status; a changed extension field is sent', () => {
    const values = { ...storedValues(kind, extensions, record), date: '2030-01-02T09:30', geo_lat: '40' };
    expect(writeInput(kind, extensions, values, record)).toMatchObject({ status: 'publish', date: '2030-01-02 09:30:00', geo_lat: '40' });
  });

  it('reads a posted form: an unticked checkbox is false, texts are trimmed where they are identifiers', () => {
    const values = postedValues(kind, extensions, { venue: ' Hall ', slug: ' hall ', city: 'Lyon', geo_lat: ' 1 ' });
    expect(values).toMatchObject({ venue: ' Hall ', slug: 'hall', city: 'Lyon', show_map: false, geo_lat: '1' });
  });

  it('a conflict lists what differs between the stored record and the saved values', () => {
    const values = { ...storedValues(kind, extensions, record), city: 'Lyon', show_map: false };
    expect(conflictRows(kind, extensions, record, values)).toEqual([
      { label: 'City', theirs: 'Paris', yours: 'Lyon' },
      { label: 'Show a map', theirs: 'Yes', yours: 'No' },
    ]);
  });
});
