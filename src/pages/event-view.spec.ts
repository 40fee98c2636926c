import { addressParts, EventJson, eventWhen, googleCalendarLink, mapLink, scriptJson, shortTime, venueAddress } from './event-view';

const event = (over: Partial<EventJson>): EventJson => ({
  id: 1,
  title: 'Gig',
  url: 'https://example.org/event/gig/',
  start_date: '2026-03-28 22:00:00',
  end_date: '2026-03-29 09:00:00',
  utc_start_date: '2026-03-28 21:00:00',
  utc_end_date: '2026-03-29 07:00:00',
  timezone: 'Europe/Berlin',
  timezone_abbr: 'CET',
  all_day: false,
  ...over,
});

describe('eventWhen', () => {
  it.each([
    [
      'timed, one day',
      event({ utc_start_date: '2026-06-01 17:00:00', utc_end_date: '2026-06-01 19:30:00', timezone_abbr: 'CEST' }),
      'Monday 1 June 2026, 19:00 – 21:30 CEST',
    ],
    ['timed, across the change to summer time', event({}), 'Saturday 28 March 2026, 22:00 CET – Sunday 29 March 2026, 09:00 CEST'],
    ['all day', event({ all_day: true, start_date: '2026-06-01 00:00:00', end_date: '2026-06-01 23:59:59' }), 'Monday 1 June 2026 · All day'],
    [
      'all day, several days',
      event({ all_day: true, start_date: '2026-06-01 00:00:00', end_date: '2026-06-03 23:59:59' }),
      'Monday 1 June – Wednesday 3 June 2026 · All day',
    ],
    [
      'all day, across the new year',
      event({ all_day: true, start_date: '2026-12-31 00:00:00', end_date: '2027-01-01 23:59:59' }),
      'Thursday 31 December 2026 – Friday 1 January 2027 · All day',
    ],
  ])('%s', (_, e, text) => {
    expect(eventWhen(e, 'Europe/Berlin').text).toBe(text);
  });

  it('adds the site zone only when its wall times differ', () => {
    const e = event({ utc_start_date: '2026-06-01 16:00:00', utc_end_date: '2026-06-01 17:00:00', timezone: 'America/New_York', timezone_abbr: 'EDT' });
    expect(eventWhen(e, 'Europe/Berlin')).toMatchObject({
      text: 'Monday 1 June 2026, 12:00 – 13:00 EDT',
      siteText: 'Monday 1 June 2026, 18:00 – 19:00 CEST',
      multiDay: false,
    });
    expect(eventWhen(e, 'America/New_York').siteText).toBeUndefined();
    expect(eventWhen(e, 'America/Toronto').siteText).toBeUndefined();
  });

  it('gives machine-readable instants with their offsets', () => {
    expect(eventWhen(event({}), 'UTC')).toMatchObject({ startIso: '2026-03-28T22:00:00+01:00', endIso: '2026-03-29T09:00:00+02:00', multiDay: true });
    // A numeric offset in UTC too (as the JSON-LD writes it), and half hours.
    const utc = event({ timezone: 'UTC', timezone_abbr: 'UTC' });
    expect(eventWhen(utc, 'Europe/Berlin')).toMatchObject({ startIso: '2026-03-28T21:00:00+00:00', endIso: '2026-03-29T07:00:00+00:00' });
    const kolkata = event({ timezone: 'Asia/Kolkata', timezone_abbr: 'IST' });
    expect(eventWhen(kolkata, 'UTC')).toMatchObject({ startIso: '2026-03-29T02:30:00+05:30', endIso: '2026-03-29T12:30:00+05:30' });
  });

  it("gives an all-day event's first and last dates, the last one included", () => {
    const e = event({ all_day: true, start_date: '2026-12-31 00:00:00', end_date: '2027-01-01 23:59:59' });
    expect(eventWhen(e, 'Pacific/Kiritimati')).toMatchObject({ startIso: '2026-12-31', endIso: '2027-01-01', allDay: true, multiDay: true });
  });
});

describe('shortTime', () => {
  it('says all day, the start time, or that a multi-day event continues', () => {
    expect(shortTime(event({ all_day: true }), '2026-03-28')).toBe('All day');
    expect(shortTime(event({}), '2026-03-28')).toBe('22:00 CET');
    expect(shortTime(event({}), '2026-03-29')).toBe('continues, from Sat 28 Mar');
  });
});

describe('googleCalendarLink', () => {
  it('timed events: UTC instants and the zone', () => {
    const p = new URL(googleCalendarLink(event({ excerpt: '<p>Loud &amp; late</p>' }), 'Hall, Bonn')).searchParams;
    expect(Object.fromEntries(p)).toEqual({
      action: 'TEMPLATE',
      text: 'Gig',
      dates: '20260328T210000Z/20260329T070000Z',
      details: 'Loud & late\n\nhttps://example.org/event/gig/',
      location: 'Hall, Bonn',
      ctz: 'Europe/Berlin',
    });
  });

  it('all-day events: dates, the end being the day after the last', () => {
    const p = new URL(googleCalendarLink(event({ all_day: true, start_date: '2026-12-31 00:00:00', end_date: '2026-12-31 23:59:59' }), '')).searchParams;
    expect(p.get('dates')).toBe('20261231/20270101');
    expect(p.has('location')).toBe(false);
  });
});

describe('venues', () => {
  const venue = { venue: 'Hall', address: '1 Quay', city: 'Bonn', stateprovince: 'NRW', zip: '53111', country: 'Germany' };
  it('writes the address in one line', () => {
    expect(venueAddress(venue)).toBe('1 Quay, Bonn, NRW 53111, Germany');
    expect(venueAddress({ city: 'Bonn' })).toBe('Bonn');
    expect(venueAddress({ city: 'Bonn', zip: '53111', country: 'Germany' })).toBe('Bonn, 53111, Germany');
  });
  it("splits it into h-adr's parts, each with the text before it on that line", () => {
    expect(addressParts(venue)).toEqual([
      { name: 'street-address', text: '1 Quay', before: '' },
      { name: 'locality', text: 'Bonn', before: ', ' },
      { name: 'region', text: 'NRW', before: ', ' },
      { name: 'postal-code', text: '53111', before: ' ' },
      { name: 'country-name', text: 'Germany', before: ', ' },
    ]);
    expect(addressParts({ zip: '53111', country: 'Germany &amp; more', address: '' })).toEqual([
      { name: 'postal-code', text: '53111', before: '' },
      { name: 'country-name', text: 'Germany & more', before: ', ' },
    ]);
    expect(addressParts({})).toEqual([]);
  });
  it('links the map to the coordinates when there are some, else to a search, and not at all when the venue says so', () => {
    expect(mapLink({ ...venue, geo_lat: 50.73, geo_lng: 7.1 })).toBe('https://www.openstreetmap.org/?mlat=50.73&mlon=7.1#map=16/50.73/7.1');
    expect(mapLink(venue)).toBe(`https://www.openstreetmap.org/search?query=${encodeURIComponent('Hall, 1 Quay, Bonn, NRW 53111, Germany')}`);
    expect(mapLink({ ...venue, show_map_link: false })).toBeUndefined();
    expect(mapLink({})).toBeUndefined();
  });
});

describe('scriptJson', () => {
  it('leaves no character that could end the script element or open a comment, and parses back to the value', () => {
    const value = { name: '</script><script>alert(1)</script> <!-- & \u2028\u2029' };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
