import { DateTime } from 'luxon';
import { Random } from './prng';
import { checkSeedOptions, EventSpec, resolveSeedOptions, SeedPlan } from './seed-plan';
import * as vocabulary from './vocabulary';
import { COMMON_WORDS, RARE_WORDS } from './vocabulary';

const TODAY = '2026-03-01';
const plan = (events: number, seed = 1) => new SeedPlan(resolveSeedOptions({ events, seed, today: TODAY }));
const text = (e: EventSpec) => `${e.title}\n${e.description}\n${e.excerpt}`.toLowerCase();

describe('Random (mulberry32)', () => {
  it('repeats its sequence for a seed and stays in range', () => {
    const a = new Random(42);
    const b = new Random(42);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Random(43).next()).not.toBe(xs[0]);
    const r = new Random(1);
    const ints = Array.from({ length: 2000 }, () => r.int(3, 7));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6, 7]));
  });

  it('draws distinct skewed indexes, low ones more often', () => {
    const r = new Random(9);
    const picks = Array.from({ length: 5000 }, () => r.skewedIndex(100));
    expect(picks.filter((i) => i < 10).length).toBeGreaterThan(picks.filter((i) => i >= 90).length * 3);
    const set = r.distinctSkewed(5, 3);
    expect(new Set(set).size).toBe(3);
    expect(r.distinctSkewed(2, 4).length).toBeLessThanOrEqual(2);
  });
});

describe('seed options', () => {
  it('scales venues and organizers with the events, at least 10 each', () => {
    expect(resolveSeedOptions({ today: TODAY })).toEqual({
      events: 100_000,
      venues: 2000,
      organizers: 1000,
      categories: 100,
      tags: 300,
      seed: 1,
      today: TODAY,
    });
    expect(resolveSeedOptions({ events: 300, today: TODAY })).toMatchObject({ venues: 10, organizers: 10, categories: 100, tags: 300 });
    expect(resolveSeedOptions({ events: 5000, venues: 3 })).toMatchObject({ venues: 3, organizers: 50 });
    expect(resolveSeedOptions({}, DateTime.fromISO('2030-05-06T23:30:00', { zone: 'Asia/Tokyo' })).today).toBe('2030-05-06');
  });

  it('names every bad option', () => {
    expect(checkSeedOptions(resolveSeedOptions({ events: 10, today: TODAY }))).toEqual([]);
    const bad = checkSeedOptions({ ...resolveSeedOptions({ today: TODAY }), events: 0, tags: NaN, today: '2026-02-30' });
    expect(bad).toEqual([
      '--events must be a whole number from 1 to 10000000.',
      '--tags must be a whole number from 0 to 10000.',
      '--today must be a date, YYYY-MM-DD.',
    ]);
  });
});

describe('SeedPlan', () => {
  it('is a pure function of the options', () => {
    const first = [...plan(200, 7).events()];
    expect([...plan(200, 7).events()]).toEqual(first);
    expect(plan(200, 7).venues()).toEqual(plan(200, 7).venues());
    expect([...plan(200, 8).events()].map((e) => e.title)).not.toEqual(first.map((e) => e.title));
  });

  it('builds a category tree of three levels, parents first, and unique names', () => {
    const categories = plan(10).categories();
    expect(categories).toHaveLength(100);
    expect(new Set(categories.map((c) => c.name.toLowerCase())).size).toBe(100);
    expect(Math.max(...categories.map((c) => c.depth))).toBe(2);
    categories.forEach((c, i) => {
      if (c.parent !== null) {
        expect(c.parent).toBeLessThan(i);
        expect(categories[c.parent].depth).toBe(c.depth - 1);
      }
    });
    const more = new SeedPlan(resolveSeedOptions({ events: 10, categories: 150, tags: 500, today: TODAY }));
    expect(new Set(more.categories().map((c) => c.name)).size).toBe(150);
    expect(new Set(more.tags().map((t) => t.name)).size).toBe(500);
  });

  describe('a dataset of 10,000 events', () => {
    const p = plan(10_000);
    const events = [...p.events()];
    const share = (test: (e: EventSpec) => boolean) => events.filter(test).length / events.length;

    it('has the documented shares of statuses and flags', () => {
      expect(share((e) => e.status === 'draft')).toBeCloseTo(0.05, 2);
      expect(share((e) => e.status === 'trash')).toBeCloseTo(0.02, 2);
      expect(share((e) => e.hideFromListings)).toBeCloseTo(0.03, 2);
      expect(share((e) => e.featured)).toBeCloseTo(0.1, 1);
      expect(share((e) => e.venue !== null)).toBeCloseTo(0.9, 1);
      expect(share((e) => e.timing.startDate >= TODAY)).toBeCloseTo(0.85, 1);
      expect(share((e) => e.timing.allDay)).toBeCloseTo(0.1, 1);
    });

    it('links 0–2 organizers, 0–3 categories and 0–4 tags', () => {
      const counts = (f: (e: EventSpec) => number[]) => new Set(events.map((e) => f(e).length));
      expect(counts((e) => e.organizers)).toEqual(new Set([0, 1, 2]));
      expect(counts((e) => e.categories)).toEqual(new Set([0, 1, 2, 3]));
      expect(counts((e) => e.tags)).toEqual(new Set([0, 1, 2, 3, 4]));
      expect(events.every((e) => new Set(e.categories).size === e.categories.length)).toBe(true);
    });

    it('spreads upcoming events over two years and past ones over one', () => {
      const day = (offset: number) => DateTime.fromISO(TODAY, { zone: 'utc' }).plus({ days: offset }).toFormat('yyyy-MM-dd');
      const starts = events.map((e) => e.timing.startDate).sort();
      expect(starts[0] >= day(-365)).toBe(true);
      expect(starts[starts.length - 1] < day(730)).toBe(true);
      expect(starts.filter((s) => s > day(365)).length).toBeGreaterThan(events.length / 3);
    });

    it('mixes time zones, all-day and multi-day events, with UTC dates from applyTiming', () => {
      const zones = new Set(events.map((e) => e.timing.timezone));
      for (const zone of ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney', 'UTC+5:30']) expect(zones).toContain(zone);
      const allDay = events.filter((e) => e.timing.allDay);
      expect(allDay.every((e) => e.timing.startDate.endsWith('00:00:00') && e.timing.endDate.endsWith('23:59:59'))).toBe(true);
      expect(events.some((e) => e.timing.endDate.slice(0, 10) > e.timing.startDate.slice(0, 10) && !e.timing.allDay)).toBe(true);
      const tokyo = events.find((e) => e.timing.timezone === 'Asia/Tokyo') as EventSpec;
      expect(DateTime.fromSQL(tokyo.timing.startDateUtc, { zone: 'utc' }).setZone('Asia/Tokyo').toFormat('yyyy-MM-dd HH:mm:ss')).toBe(tokyo.timing.startDate);
    });

    it('publishes everything before `today`', () => {
      expect(events.every((e) => e.dateUtc < TODAY && e.modifiedUtc < TODAY && e.dateUtc < e.modifiedUtc)).toBe(true);
    });

    it('puts each common word in about 30% of events and each rare word in about 0.1%', () => {
      for (const word of COMMON_WORDS) expect(share((e) => text(e).includes(word))).toBeCloseTo(0.3, 1);
      for (const word of RARE_WORDS) {
        const n = events.filter((e) => text(e).includes(word)).length;
        expect(n).toBeGreaterThanOrEqual(2);
        expect(n).toBeLessThanOrEqual(25);
      }
    });

    it('gives costs as the events store them', () => {
      const costs = new Set(events.map((e) => JSON.stringify(e.cost)));
      for (const cost of ['[]', '["$10"]', '["Free"]', '["€5 - €20"]']) expect(costs).toContain(cost);
    });
  });

  it('uses no search word inside any other word of its vocabulary', () => {
    const search = [...COMMON_WORDS, ...RARE_WORDS] as string[];
    const { COMMON_WORD_PHRASES, rareWordSentence, ...lists } = vocabulary;
    const all = JSON.stringify(lists).toLowerCase();
    for (const word of search) {
      expect(all.split(`"${word}"`).join('')).not.toContain(word);
      expect(search.filter((other) => other !== word && other.includes(word))).toEqual([]);
    }
    // each phrase carries its own word only
    for (const [word, phrase] of Object.entries(COMMON_WORD_PHRASES)) {
      const t = `${phrase.title} ${phrase.sentence}`.toLowerCase();
      expect(search.filter((w) => t.includes(w))).toEqual([word]);
    }
    expect(search.filter((w) => rareWordSentence('X').toLowerCase().includes(w))).toEqual([]);
  });
});
