import { DateTime } from 'luxon';
import { formatUtcMillis } from '../common/datetime/format';
import { applyTiming, EventTiming } from '../events';
import { Random } from './prng';
import {
  ADJECTIVES,
  CATEGORY_TREE,
  CategoryNode,
  CITIES,
  COMMON_WORD_PHRASES,
  COMMON_WORD_SHARE,
  COMMON_WORDS,
  COSTS,
  EVENT_KINDS,
  EVENT_ZONES,
  ORGANIZER_KINDS,
  RARE_WORD_SHARE,
  RARE_WORDS,
  rareWordSentence,
  SENTENCES,
  SLOTS,
  STREETS,
  TAG_WORDS,
  TOPICS,
  VENUE_KINDS,
} from './vocabulary';

/** What `npm run cli -- seed` builds. */
export interface SeedOptions {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  seed: number;
  /** The day the data is built around (`YYYY-MM-DD`, UTC): most events come after it. */
  today: string;
}

export const DEFAULT_EVENTS = 100_000;
export const DEFAULT_CATEGORIES = 100;
export const DEFAULT_TAGS = 300;
export const DEFAULT_SEED = 1;

/** Shares of the dataset (the "realistic" mix). */
const SHARE = {
  draft: 0.05,
  trash: 0.02,
  hidden: 0.03,
  featured: 0.1,
  sticky: 0.01,
  withVenue: 0.9,
  upcoming: 0.85,
  allDay: 0.1,
  multiDay: 0.07,
  /** An event at a venue usually happens in the venue's zone. */
  venueZone: 0.85,
};
/** Upcoming events spread over the next two years, past ones over the last year. */
const UPCOMING_DAYS = 730;
const PAST_DAYS = 365;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Fills in the defaults: venues N/50 and organizers N/100 (at least 10 each), today in UTC. */
export function resolveSeedOptions(given: Partial<SeedOptions>, now: DateTime = DateTime.utc()): SeedOptions {
  const events = given.events ?? DEFAULT_EVENTS;
  return {
    events,
    venues: given.venues ?? Math.max(10, Math.round(events / 50)),
    organizers: given.organizers ?? Math.max(10, Math.round(events / 100)),
    categories: given.categories ?? DEFAULT_CATEGORIES,
    tags: given.tags ?? DEFAULT_TAGS,
    seed: given.seed ?? DEFAULT_SEED,
    today: given.today ?? (now.toUTC().toISODate() as string),
  };
}

/** Problems with the options, one message each (empty when they are fine). */
export function checkSeedOptions(o: SeedOptions): string[] {
  const problems: string[] = [];
  const counts: [keyof SeedOptions, number, number][] = [
    ['events', 1, 10_000_000],
    ['venues', 0, 1_000_000],
    ['organizers', 0, 1_000_000],
    ['categories', 0, 10_000],
    ['tags', 0, 10_000],
    ['seed', 0, 2 ** 32 - 1],
  ];
  for (const [name, min, max] of counts) {
    const value = o[name] as number;
    if (!Number.isSafeInteger(value) || value < min || value > max) problems.push(`--${name} must be a whole number from ${min} to ${max}.`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(o.today) || !DateTime.fromISO(o.today, { zone: 'utc' }).isValid) problems.push('--today must be a date, YYYY-MM-DD.');
  return problems;
}

export interface VenueSpec {
  name: string;
  description: string;
  excerpt: string;
  address: string;
  city: string;
  state: string;
  province: string;
  stateprovince: string;
  country: string;
  zip: string;
  phone: string;
  website: string;
  dateUtc: string;
  modifiedUtc: string;
  /** The zone of events held there. */
  zone: string;
}

export interface OrganizerSpec {
  name: string;
  description: string;
  excerpt: string;
  phone: string;
  website: string;
  email: string;
  dateUtc: string;
  modifiedUtc: string;
}

export interface TermSpec {
  name: string;
  description: string;
  /** Index of the parent in the same list (always before this one), or null at the top. */
  parent: number | null;
  /** 0 at the top. */
  depth: number;
}

export type SeedStatus = 'publish' | 'draft' | 'trash';

export interface EventSpec {
  status: SeedStatus;
  title: string;
  description: string;
  excerpt: string;
  timing: EventTiming;
  /** The cost strings as given (stored as JSON array text). */
  cost: string[];
  website: string;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  /** Indexes into venues(), organizers(), categories(), tags(). */
  venue: number | null;
  organizers: number[];
  categories: number[];
  tags: number[];
  dateUtc: string;
  modifiedUtc: string;
}

/**
 * The dataset as a pure function of the options: the same options give the same venues,
 * organizers, terms and events, in the same order. Each kind draws from its own random stream,
 * so the events do not change when, say, only the number of tags does not either.
 * Links are indexes; the seeder turns them into ids.
 */
export class SeedPlan {
  /** `today` at 00:00 UTC, in milliseconds since the epoch. */
  private readonly anchorMs: number;
  private venueList?: VenueSpec[];

  constructor(readonly options: SeedOptions) {
    this.anchorMs = DateTime.fromISO(options.today, { zone: 'utc' }).startOf('day').toMillis();
  }

  private stream(kind: number): Random {
    return new Random((Math.imul(this.options.seed, 0x9e3779b1) + kind * 0x85ebca6b) >>> 0);
  }

  venues(): VenueSpec[] {
    if (this.venueList) return this.venueList;
    const r = this.stream(1);
    const names = new UniqueNames();
    this.venueList = Array.from({ length: this.options.venues }, () => {
      const city = r.pick(CITIES);
      const name = names.take(`${r.pick(ADJECTIVES)} ${r.pick(VENUE_KINDS)}`, ` ${city.city}`);
      const { dateUtc, modifiedUtc } = this.publication(r);
      return {
        name,
        description: r.chance(0.7) ? sentences(r, r.int(1, 3)) : '',
        excerpt: '',
        address: `${r.int(1, 250)} ${r.pick(STREETS)}`,
        city: city.city,
        state: city.state,
        province: city.province,
        stateprovince: city.state || city.province,
        country: city.country,
        zip: city.zip,
        phone: `${city.phonePrefix} 555 ${r.int(1000, 9999)}`,
        website: r.chance(0.6) ? `https://venues.example.com/${names.size}` : '',
        dateUtc,
        modifiedUtc,
        zone: city.zone,
      };
    });
    return this.venueList;
  }

  organizers(): OrganizerSpec[] {
    const r = this.stream(2);
    const names = new UniqueNames();
    return Array.from({ length: this.options.organizers }, () => {
      const name = names.take(`${r.pick(ADJECTIVES)} ${r.pick(TOPICS)} ${r.pick(ORGANIZER_KINDS)}`, ` ${r.pick(CITIES).city}`);
      const { dateUtc, modifiedUtc } = this.publication(r);
      const n = names.size;
      return {
        name,
        description: r.chance(0.6) ? sentences(r, r.int(1, 2)) : '',
        excerpt: '',
        phone: r.chance(0.7) ? `${r.pick(CITIES).phonePrefix} 555 ${r.int(1000, 9999)}` : '',
        website: r.chance(0.7) ? `https://organizers.example.com/${n}` : '',
        email: r.chance(0.8) ? `hello${n}@organizers.example.com` : '',
        dateUtc,
        modifiedUtc,
      };
    });
  }

  /** Roots first, then the rest of the tree depth-first (so three levels appear), then made-up ones. */
  categories(): TermSpec[] {
    const r = this.stream(3);
    const out: TermSpec[] = CATEGORY_TREE.map(([name]) => ({ name, description: `Events about ${name.toLowerCase()}.`, parent: null, depth: 0 }));
    const walk = (nodes: CategoryNode[] | undefined, parent: number, depth: number) => {
      for (const [name, children] of nodes ?? []) {
        out.push({ name, description: `Events about ${name.toLowerCase()}.`, parent, depth });
        walk(children, out.length - 1, depth + 1);
      }
    };
    CATEGORY_TREE.forEach(([, children], i) => walk(children, i, 1));
    const names = new UniqueNames(out.map((c) => c.name));
    while (out.length < this.options.categories) {
      const parent = r.int(0, CATEGORY_TREE.length - 1);
      const name = names.take(`${r.pick(ADJECTIVES)} ${r.pick(TOPICS)}`, ` ${r.pick(EVENT_KINDS)}`);
      out.push({ name, description: '', parent, depth: 1 });
    }
    return out.slice(0, this.options.categories);
  }

  tags(): TermSpec[] {
    const r = this.stream(4);
    const names = new UniqueNames();
    const out: TermSpec[] = [];
    const add = (name: string) => out.push({ name: names.take(name, ` ${r.pick(EVENT_KINDS).toLowerCase()}`), description: '', parent: null, depth: 0 });
    for (const word of [...TAG_WORDS, ...TOPICS.map((t) => t.toLowerCase())]) {
      if (out.length >= this.options.tags) break;
      add(word);
    }
    while (out.length < this.options.tags) add(`${r.pick(ADJECTIVES).toLowerCase()} ${r.pick(TOPICS).toLowerCase()}`);
    return out;
  }

  /** The events, one at a time (100,000 of them need not sit in memory together). */
  *events(): Generator<EventSpec> {
    const r = this.stream(5);
    const venues = this.venues();
    const { organizers, categories, tags } = this.options;
    for (let i = 0; i < this.options.events; i++) {
      const status: SeedStatus = r.weighted([
        ['draft', SHARE.draft],
        ['trash', SHARE.trash],
        ['publish', 1 - SHARE.draft - SHARE.trash],
      ]);
      const venue = venues.length > 0 && r.chance(SHARE.withVenue) ? r.skewedIndex(venues.length) : null;
      const zone = venue !== null && r.chance(SHARE.venueZone) ? venues[venue].zone : r.weighted(EVENT_ZONES);
      const text = eventText(r);
      const showMap = venue !== null && r.chance(0.8);
      const { dateUtc, modifiedUtc } = this.publication(r);
      yield {
        status,
        ...text,
        timing: this.timing(r, zone),
        cost: r.weighted(COSTS),
        website: r.chance(0.3) ? `https://tickets.example.com/e/${i + 1}` : '',
        showMap,
        showMapLink: showMap && r.chance(0.9),
        hideFromListings: r.chance(SHARE.hidden),
        sticky: r.chance(SHARE.sticky),
        featured: r.chance(SHARE.featured),
        venue,
        organizers: r.distinctSkewed(
          organizers,
          r.weighted([
            [0, 25],
            [1, 60],
            [2, 15],
          ]),
        ),
        categories: r.distinctSkewed(
          categories,
          r.weighted([
            [0, 15],
            [1, 45],
            [2, 30],
            [3, 10],
          ]),
        ),
        tags: r.distinctSkewed(tags, r.int(0, 4)),
        dateUtc,
        modifiedUtc,
      };
    }
  }

  /** Start and end on the wall clock (from 08:00, so no daylight-saving gap is hit), then UTC via applyTiming. */
  private timing(r: Random, zone: string): EventTiming {
    const day = r.chance(SHARE.upcoming) ? r.int(0, UPCOMING_DAYS - 1) : -r.int(1, PAST_DAYS);
    const allDay = r.chance(SHARE.allDay);
    const extraDays = r.chance(SHARE.multiDay) ? r.int(1, 4) : 0;
    // Milliseconds, not luxon: the anchor is a UTC midnight, where days are 24 hours long.
    const start = this.anchorMs + day * DAY_MS + (allDay ? 0 : 8 * 60 + 15 * r.int(0, 54)) * MINUTE_MS;
    const end = start + extraDays * DAY_MS + (allDay ? 0 : 30 * r.int(2, 8)) * MINUTE_MS;
    return applyTiming(null, { start: formatUtcMillis(start), end: formatUtcMillis(end), timezone: zone, allDay });
  }

  /** A publication date (and a later modification) between 400 days and a day before `today`. */
  private publication(r: Random): { dateUtc: string; modifiedUtc: string } {
    const back = r.int(2, 400);
    const published = this.anchorMs - back * DAY_MS + r.int(0, 86_399) * 1000;
    const modified = this.anchorMs - r.int(1, back - 1) * DAY_MS + r.int(0, 86_399) * 1000;
    return { dateUtc: formatUtcMillis(published), modifiedUtc: formatUtcMillis(modified) };
  }
}

/** Title, description and excerpt, with the search words of vocabulary.ts at their shares. */
function eventText(r: Random): { title: string; description: string; excerpt: string } {
  const adj = r.pick(ADJECTIVES);
  const topic = r.pick(TOPICS);
  const kind = r.pick(EVENT_KINDS);
  let title = r.pick([
    `${adj} ${topic} ${kind}`,
    `${topic} ${kind} with ${r.pick(SLOTS.people)}`,
    `The ${adj} ${topic} ${kind}`,
    `${topic} ${kind}: ${adj} Edition`,
  ]);
  const paragraphs = Array.from({ length: r.int(2, 3) }, () => [...Array.from({ length: r.int(2, 4) }, () => sentence(r))]);
  const insert = (s: string) => paragraphs[r.int(0, paragraphs.length - 1)].push(s);
  for (const word of COMMON_WORDS) {
    if (!r.chance(COMMON_WORD_SHARE)) continue;
    if (r.chance(0.5)) title = `${title} ${COMMON_WORD_PHRASES[word].title}`;
    else insert(COMMON_WORD_PHRASES[word].sentence);
  }
  for (const word of RARE_WORDS) if (r.chance(RARE_WORD_SHARE)) insert(rareWordSentence(word));
  return {
    title,
    description: paragraphs.map((p) => p.join(' ')).join('\n\n'),
    excerpt: r.chance(0.3) ? sentence(r) : '',
  };
}

function sentence(r: Random): string {
  const filled = r.pick(SENTENCES).replace(/\{(\w+)\}/g, (_, slot: string) => r.pick(SLOTS[slot]));
  return filled.charAt(0).toUpperCase() + filled.slice(1);
}

function sentences(r: Random, n: number): string {
  return Array.from({ length: n }, () => sentence(r)).join(' ');
}

/** Names made unique by a suffix, then a number: `Golden Hall`, `Golden Hall Berlin`, `Golden Hall 3`. */
class UniqueNames {
  private readonly taken: Set<string>;

  constructor(existing: Iterable<string> = []) {
    this.taken = new Set([...existing].map((n) => n.toLowerCase()));
  }

  get size(): number {
    return this.taken.size;
  }

  take(name: string, suffix: string): string {
    let candidate = name;
    if (this.taken.has(candidate.toLowerCase())) candidate = `${name}${suffix}`;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${name}${suffix} ${n}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
