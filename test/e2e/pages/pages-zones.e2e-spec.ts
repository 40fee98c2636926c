// The month grid across time zones (pages.md, "Days an event covers"): an event sits on the
// dates of its own start_date..end_date (wall times in its own zone), whatever the site zone,
// and the month grid and the day page agree on every day. With the site in
// UTC the README's "Spring Jazz Night" (Friday 19:30 in New York) stays on Friday.
import { DateTime } from 'luxon';
import { createEvent, makeUsers } from '../../support/api';
import { http } from '../../support/http';
import { cardTitles, gridCells } from '../../support/page-html';
import { createTestApp, TestApp } from '../../support/test-app';

interface Case {
  title: string;
  fields: Record<string, unknown>;
  /** The dates (`YYYY-MM-DD`) the event covers, in every site zone. */
  days: string[];
}

const CASES: Case[] = [
  {
    title: 'Spring Jazz Night',
    fields: { start_date: '2027-04-16 19:30:00', end_date: '2027-04-16 22:00:00', timezone: 'America/New_York' },
    days: ['2027-04-16'],
  },
  {
    title: 'Paris Christmas Eve',
    fields: { start_date: '2027-12-24 00:00:00', end_date: '2027-12-24 23:59:59', all_day: true, timezone: 'Europe/Paris' },
    days: ['2027-12-24'],
  },
  {
    title: 'Tokyo Night Walk',
    fields: { start_date: '2027-04-20 22:00:00', end_date: '2027-04-21 02:00:00', timezone: 'Asia/Tokyo' },
    days: ['2027-04-20', '2027-04-21'],
  },
  {
    title: 'Berlin Until Midnight',
    fields: { start_date: '2027-04-22 20:00:00', end_date: '2027-04-23 00:00:00', timezone: 'Europe/Berlin' },
    days: ['2027-04-22'],
  },
  {
    // Clocks go forward in New York on Sunday 14 March 2027.
    title: 'New York Clock Change Vigil',
    fields: { start_date: '2027-03-13 20:00:00', end_date: '2027-03-14 10:00:00', timezone: 'America/New_York' },
    days: ['2027-03-13', '2027-03-14'],
  },
  {
    // Clocks go forward in Paris on Sunday 28 March 2027: three days, across the change.
    title: 'Paris Spring Weekend',
    fields: { start_date: '2027-03-27 22:00:00', end_date: '2027-03-29 09:00:00', timezone: 'Europe/Paris' },
    days: ['2027-03-27', '2027-03-28', '2027-03-29'],
  },
  {
    // Monday 31 May is the first day of June's grid; in UTC it is still Sunday 30 May.
    title: 'Kiritimati Dawn',
    fields: { start_date: '2027-05-31 06:00:00', end_date: '2027-05-31 07:00:00', timezone: 'Pacific/Kiritimati' },
    days: ['2027-05-31'],
  },
  {
    // Sunday 4 July is the last day of June's grid; in UTC and Tokyo it is already Monday 5 July.
    title: 'Pago Pago Evening',
    fields: { start_date: '2027-07-04 20:00:00', end_date: '2027-07-04 21:00:00', timezone: 'Pacific/Pago_Pago' },
    days: ['2027-07-04'],
  },
  {
    title: 'Sydney All Weekend',
    fields: { start_date: '2027-05-01 00:00:00', end_date: '2027-05-02 23:59:59', all_day: true, timezone: 'Australia/Sydney' },
    days: ['2027-05-01', '2027-05-02'],
  },
];

const MONTHS = ['2027-03', '2027-04', '2027-05', '2027-06', '2027-07', '2027-12'];

const shift = (date: string, days: number) => DateTime.fromISO(date).plus({ days }).toISODate()!;

describe.each(['UTC', 'America/New_York', 'Asia/Tokyo'])('the month grid with the site zone %s (pages.md: days an event covers)', (siteZone) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: siteZone });
    const { admin } = await makeUsers(t);
    for (const c of CASES) await createEvent(t, admin.authorization, { title: c.title, status: 'publish', ...c.fields });
  });
  afterAll(async () => t?.close());

  it('places each event on its own wall dates, in every month grid that shows them, and nowhere else', async () => {
    const seen: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const month of MONTHS) {
      const cells = gridCells((await http(t).get(`/events/month/${month}/`).expect(200)).text);
      for (const c of CASES) {
        const key = `${c.title} in ${month}`;
        seen[key] = [...cells].filter(([, text]) => text.includes(c.title)).map(([date]) => date);
        expected[key] = c.days.filter((d) => cells.has(d));
      }
    }
    expect(seen).toEqual(expected);
    // The edges: both events near the ends of June's grid are in it.
    expect(expected['Kiritimati Dawn in 2027-06']).toEqual(['2027-05-31']);
    expect(expected['Pago Pago Evening in 2027-06']).toEqual(['2027-07-04']);
  });

  it('a cell shows the time in the event\'s zone, never "continues" on a day the event does not cover', async () => {
    const cells = gridCells((await http(t).get('/events/month/2027-04/').expect(200)).text);
    expect(cells.get('2027-04-16')).toMatch(/19:30 EDT Spring Jazz Night/);
    expect(cells.get('2027-04-17')).not.toContain('Spring Jazz Night');
    expect(cells.get('2027-04-21')).toContain('continues, from Tue 20 Apr Tokyo Night Walk');
  });

  it('the day page lists an event on exactly the days the month grid shows it', async () => {
    const seen: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const c of CASES) {
      const around = [shift(c.days[0], -1), ...c.days, shift(c.days[c.days.length - 1], 1)];
      seen[c.title] = [];
      for (const date of around) {
        if (cardTitles((await http(t).get(`/events/${date}/`).expect(200)).text).includes(c.title)) seen[c.title].push(date);
      }
      expected[c.title] = c.days;
    }
    expect(seen).toEqual(expected);
  });

  it('the site zone decides which cell is today', async () => {
    const html = (await http(t).get('/events/month/').expect(200)).text;
    const today = DateTime.now().setZone(siteZone).toISODate()!;
    expect(/<td class="day[^"]* today[^"]*">\s*<a class="day-link" href="[^"]*\/events\/(\d{4}-\d{2}-\d{2})\//.exec(html)?.[1]).toBe(today);
  });
});
