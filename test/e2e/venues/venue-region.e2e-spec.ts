// `stateprovince` derived as TEC does when none was written (resources.md §2, §7), wherever a venue appears.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { createEvent, createVenue, makeUsers, uid } from '../../support/api';

describe('venues: derived stateprovince', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin.authorization;
  });
  afterAll(async () => t?.close());

  it('is the state for a US venue and the province elsewhere: single read, list, embedded, JSON-LD', async () => {
    const us = await createVenue(t, admin, { venue: `Hudson Hall ${uid()}`, country: 'United States', state: 'NY', province: 'ignored' });
    const ca = await createVenue(t, admin, { venue: `Quebec Hall ${uid()}`, country: 'Canada', state: 'ignored', province: 'QC' });
    const single = await http(t).get(`${API}/venues/${us.id}`);
    expect(single.body.stateprovince).toBe('NY');
    expect(single.body.json_ld.address.addressRegion).toBe('NY');
    const list = await http(t).get(`${API}/venues?search=Quebec`);
    expect(list.body.venues.map((v: { stateprovince?: string }) => v.stateprovince)).toEqual(['QC']);
    const event = await createEvent(t, admin, { venue: ca.id });
    const read = await http(t).get(`${API}/events/${event.id}`);
    expect(read.body.venue.stateprovince).toBe('QC');
    expect(read.body.json_ld.location.address.addressRegion).toBe('QC');
  });

  it('keeps a written stateprovince as written', async () => {
    const v = await createVenue(t, admin, { venue: `Region ${uid()}`, country: 'France', province: 'IDF', stateprovince: 'Ile-de-France' });
    expect((await http(t).get(`${API}/venues/${v.id}`)).body.stateprovince).toBe('Ile-de-France');
  });
});
