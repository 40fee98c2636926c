// A small, realistic calendar for the page tests (and the screenshots in docs/): made through the
// HTTP API like any other seed, with dates relative to today in the site zone so that the
// current month view, the list of upcoming events and next month's view all have something.
import { DateTime } from 'luxon';
import { createCategory, createEvent, createOrganizer, createTag, createVenue, EventBody, LinkedItemBody, TermBody } from './api';
import type { TestApp } from './test-app';

/** The site zone the page tests run with (CALENDAR_TIMEZONE). */
export const SITE_ZONE = 'Europe/Paris';
/** An event zone that is not the site zone (the event page then shows both). */
export const OTHER_ZONE = 'America/New_York';

export interface PagesSeed {
  /** Today in the site zone (00:00). */
  today: DateTime;
  venue: LinkedItemBody;
  organizer: LinkedItemBody;
  music: TermBody;
  jazz: TermBody;
  family: TermBody;
  outdoor: TermBody;
  /** Today, 19:30-22:00 (site zone): venue, organizer, child category, tags, cost, HTML description. */
  concert: EventBody;
  /** All day today. */
  market: EventBody;
  /** Tomorrow 10:00 to the day after next 18:00. */
  fair: EventBody;
  /** The day after tomorrow, noon in OTHER_ZONE. */
  talk: EventBody;
  /** The 10th of next month, 20:00, at the venue. */
  nextMonth: EventBody;
  /** Today, a draft: no page may show it. */
  draft: EventBody;
}

const day = (d: DateTime, time: string) => `${d.toISODate()} ${time}`;

export async function seedPages(t: TestApp, authorization: string): Promise<PagesSeed> {
  const today = DateTime.now().setZone(SITE_ZONE).startOf('day');
  const venue = await createVenue(t, authorization, {
    venue: 'Salle des Fêtes du Canal',
    address: '12 Quai de Valmy',
    city: 'Paris',
    zip: '75010',
    country: 'France',
    phone: '+33 1 42 00 00 00',
    website: 'https://salle-canal.example',
    geo_lat: 48.8709,
    geo_lng: 2.3633,
  });
  const organizer = await createOrganizer(t, authorization, {
    organizer: 'Les Amis du Jazz',
    email: 'bonjour@amis-du-jazz.example',
    phone: '+33 6 12 34 56 78',
    website: 'https://amis-du-jazz.example',
  });
  const music = await createCategory(t, authorization, { name: 'Music', description: 'Concerts and live music' });
  const jazz = await createCategory(t, authorization, { name: 'Jazz', parent: music.id });
  const family = await createCategory(t, authorization, { name: 'Family' });
  const outdoor = await createTag(t, authorization, { name: 'Outdoor' });
  const freeEntry = await createTag(t, authorization, { name: 'Free entry' });
  const live = await createTag(t, authorization, { name: 'Live' });

  const concert = await createEvent(t, authorization, {
    title: 'Jazz by the Canal',
    start_date: day(today, '19:30:00'),
    end_date: day(today, '22:00:00'),
    description:
      '<p>An evening of <strong>live jazz</strong> on the banks of the canal, with the house trio and guests.</p><ul><li>Doors open at 19:00</li><li>Bar and small plates</li></ul>',
    excerpt: 'Live jazz on the banks of the canal.',
    cost: '€25',
    website: 'https://amis-du-jazz.example/canal',
    venue: venue.id,
    organizer: [organizer.id],
    categories: [jazz.id],
    tags: [live.id],
  });
  const market = await createEvent(t, authorization, {
    title: 'Neighbourhood Market',
    start_date: day(today, '00:00:00'),
    end_date: day(today, '23:59:59'),
    all_day: true,
    description: '<p>Local growers, bakers and makers fill the square.</p>',
    cost: '0',
    categories: [family.id],
    tags: [outdoor.id, freeEntry.id],
  });
  const fair = await createEvent(t, authorization, {
    title: 'Autumn Book Fair',
    start_date: day(today.plus({ days: 1 }), '10:00:00'),
    end_date: day(today.plus({ days: 3 }), '18:00:00'),
    description: '<p>Three days of publishers, readings and signings.</p>',
    categories: [family.id],
  });
  const talkDay = DateTime.now().setZone(OTHER_ZONE).startOf('day').plus({ days: 2 });
  const talk = await createEvent(t, authorization, {
    title: 'Live from New York: Panel Talk',
    start_date: day(talkDay, '12:00:00'),
    end_date: day(talkDay, '13:30:00'),
    timezone: OTHER_ZONE,
    description: '<p>A panel streamed from Manhattan, shown on the big screen.</p>',
    venue: venue.id,
  });
  const next = today.plus({ months: 1 }).set({ day: 10 });
  const nextMonth = await createEvent(t, authorization, {
    title: 'Winter Concert',
    start_date: day(next, '20:00:00'),
    end_date: day(next, '22:00:00'),
    description: '<p>The season closes with a big-band night.</p>',
    cost: '€30',
    venue: venue.id,
    organizer: [organizer.id],
    categories: [music.id],
    tags: [live.id],
  });
  const draft = await createEvent(t, authorization, {
    title: 'Unannounced Gala (draft)',
    status: 'draft',
    start_date: day(today, '18:00:00'),
    end_date: day(today, '23:00:00'),
    venue: venue.id,
    categories: [jazz.id],
    tags: [live.id],
  });
  return { today, venue, organizer, music, jazz, family, outdoor, concert, market, fair, talk, nextMonth, draft };
}
