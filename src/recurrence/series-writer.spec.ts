import type { Actor } from '../common/auth';
import { refusal } from '../common/errors/testing/refusal';
import { WpError } from '../common/errors';
import type { AppConfig } from '../config/app-config';
import { ChangeSet } from '../database/change-log';
import { EventEntity, SERIES_ORIGIN } from '../events';
import type { EventWriteOrigin, EventWrites } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { SeriesOccurrences } from './series-occurrences';
import { SeriesRemake } from './series-remake';
import { SeriesWriter, WriteParts } from './series-writer';
import type { SeriesRepository } from './series.repository';

// The series side of event writes without HTTP or a database: an in-memory repository
// of the two tables and events, and a fake EventWrites that records what the writer asks of the
// core (which occurrences it makes, changes and removes, with which fields and origin).

const TX = undefined as never;
const admin: Actor = { id: 1, login: 'admin', role: 'administrator' };
const config = { recurrenceMax: 1000, recurrenceHorizonDays: 730 } as AppConfig;

function event(over: Partial<EventEntity>): EventEntity {
  return Object.assign(new EventEntity(), {
    authorId: 1,
    status: 'publish',
    title: 'Yoga',
    description: '',
    excerpt: '',
    website: '',
    cost: '[]',
    showMap: false,
    showMapLink: false,
    hideFromListings: false,
    sticky: false,
    featured: false,
    venueId: null,
    imageId: null,
    dateUtc: '2026-01-01 00:00:00',
    timezone: 'Europe/Paris',
    allDay: false,
    ...over,
  });
}

/** The recurrence tables and the events, in memory, with the repository's methods. */
class MemorySeriesRepository {
  series = new Map<number, SeriesEntity>();
  rows = new Map<number, OccurrenceEntity>();
  events = new Map<number, EventEntity>();

  lockSeries = async (_tx: unknown, id: number) => this.copy(this.series.get(id));
  findSeries = this.lockSeries;
  saveSeries = async (_tx: unknown, s: SeriesEntity) => void this.series.set(s.id, this.copy(s)!);
  removeSeries = async (_tx: unknown, id: number) => {
    this.series.delete(id);
    for (const r of [...this.rows.values()]) if (r.seriesId === id) this.rows.delete(r.eventId);
  };
  occurrenceOf = async (_tx: unknown, id: number) => this.copy(this.rows.get(id)) ?? null;
  occurrencesOf = async (_tx: unknown, seriesId: number) =>
    [...this.rows.values()]
      .filter((r) => r.seriesId === seriesId)
      .sort((a, b) => (a.utcOriginalStart < b.utcOriginalStart ? -1 : 1))
      .map((r) => this.copy(r)!);
  insertOccurrences = async (_tx: unknown, rows: OccurrenceEntity[]) => {
    for (const r of rows) {
      if ([...this.rows.values()].some((o) => o.seriesId === r.seriesId && o.day === r.day && o.nth === r.nth)) throw new Error('unique key');
      this.rows.set(r.eventId, this.copy(r)!);
    }
  };
  saveOccurrence = async (_tx: unknown, r: OccurrenceEntity) => void this.rows.set(r.eventId, this.copy(r)!);
  removeOccurrences = async (_tx: unknown, ids: number[]) => ids.forEach((id) => this.rows.delete(id));
  replaceOccurrences = async (tx: unknown, seriesId: number, rows: OccurrenceEntity[]) => {
    for (const r of [...this.rows.values()]) if (r.seriesId === seriesId) this.rows.delete(r.eventId);
    await this.insertOccurrences(tx, rows);
  };
  moveOccurrences = async (_tx: unknown, from: number, utcFrom: string, to: number) => {
    for (const r of this.rows.values()) if (r.seriesId === from && r.utcOriginalStart >= utcFrom) r.seriesId = to;
  };
  eventsById = async (_tx: unknown, ids: number[]) => ids.filter((id) => this.events.has(id)).map((id) => this.events.get(id)!);
  linksOf = async () => ({ organizer: [7], categories: [3], tags: [] });

  private copy<T extends object>(x: T | undefined): T | undefined {
    return x && Object.assign(Object.create(Object.getPrototypeOf(x) as object) as T, x);
  }
}

/** EventWrites that keeps the events in the repository and records every call. */
function fakeWrites(repository: MemorySeriesRepository, refuse?: (id: number) => boolean) {
  let nextId = 100;
  const calls: { op: string; id?: number; input: Record<string, unknown>; origin?: EventWriteOrigin }[] = [];
  const writes = {
    create: jest.fn(async (_tx: unknown, _c: ChangeSet, _a: Actor | null, input: Record<string, unknown>, origin?: EventWriteOrigin) => {
      const e = event({
        id: nextId++,
        slug: String(input.slug),
        startDate: String(input.start_date),
        endDate: String(input.end_date),
        status: String(input.status),
      });
      repository.events.set(e.id, e);
      calls.push({ op: 'create', id: e.id, input, origin });
      return e;
    }),
    update: jest.fn(async (_tx: unknown, _c: ChangeSet, _a: Actor | null, id: number, input: Record<string, unknown>, origin?: EventWriteOrigin) => {
      if (refuse?.(id)) throw new WpError('rest_cannot_edit', 'Sorry, you are not allowed to edit this event.', 403);
      calls.push({ op: 'update', id, input, origin });
      const e = repository.events.get(id)!;
      if (typeof input.start_date === 'string') e.startDate = input.start_date;
      if (typeof input.title === 'string') e.title = input.title;
      if (typeof input.slug === 'string') e.slug = input.slug;
      return e;
    }),
    remove: jest.fn(
      async (_tx: unknown, _c: ChangeSet, _a: Actor | null, id: number, force: boolean, input?: Record<string, unknown>, origin?: EventWriteOrigin) => {
        calls.push({ op: force ? 'delete' : 'trash', id, input: input ?? {}, origin });
        if (force) repository.events.delete(id);
        else repository.events.get(id)!.status = 'trash';
      },
    ),
  };
  const createMany = jest.fn(async (tx: unknown, c: ChangeSet, a: Actor | null, inputs: Record<string, unknown>[], origin?: EventWriteOrigin) => {
    const made = [];
    for (const input of inputs) made.push(await writes.create(tx, c, a, input, origin));
    return made;
  });
  return { writes: { ...writes, createMany } as unknown as EventWrites, calls };
}

/** The writer with its real parts over the repository and the fake EventWrites. */
function seriesWriter(memory: MemorySeriesRepository, writes: EventWrites, settings: AppConfig): SeriesWriter {
  const repository = memory as unknown as SeriesRepository;
  const occurrences = new SeriesOccurrences(repository, writes, settings);
  return new SeriesWriter(repository, occurrences, new SeriesRemake(repository, occurrences, writes), writes);
}

const parts = (input: Record<string, unknown>, actor: Actor | null = admin): WriteParts => ({ changes: new ChangeSet(), actor, input });

/** A weekly series of `count` Tuesdays at 19:00 in Paris from 12 January 2027, made through the writer. */
async function weekly(count: number, extra: string[] = []) {
  const repository = new MemorySeriesRepository();
  const { writes, calls } = fakeWrites(repository);
  const writer = seriesWriter(repository, writes, config);
  const first = event({ id: 57, slug: 'yoga', startDate: '2027-01-12 19:00:00', endDate: '2027-01-12 20:00:00' });
  repository.events.set(first.id, first);
  await writer.saved(TX, parts({ recurrence: [`RRULE:FREQ=WEEKLY;COUNT=${count}`, ...extra] }), first, { before: null });
  return { repository, writer, calls, first };
}

describe('SeriesWriter', () => {
  it('makes the other occurrences through EventWrites, as the module’s own writes, with the series’ fields and dated slugs', async () => {
    const { repository, calls } = await weekly(3);
    expect(calls.map((c) => [c.op, c.input.slug, c.input.start_date, c.input.end_date])).toEqual([
      ['create', 'yoga-2027-01-19', '2027-01-19 19:00:00', '2027-01-19 20:00:00'],
      ['create', 'yoga-2027-01-26', '2027-01-26 19:00:00', '2027-01-26 20:00:00'],
      // The first occurrence's slug is dated too, once the others are made.
      ['update', 'yoga-2027-01-12', undefined, undefined],
    ]);
    expect(repository.events.get(57)!.slug).toBe('yoga-2027-01-12');
    expect(calls.map((c) => c.origin)).toEqual([SERIES_ORIGIN, SERIES_ORIGIN, SERIES_ORIGIN]);
    expect(calls[0].input).toMatchObject({ title: 'Yoga', timezone: 'Europe/Paris', organizer: [7], categories: [3], status: 'publish' });
    expect(calls[0].input).not.toHaveProperty('scope');
    expect(repository.series.get(57)).toMatchObject({ rule: 'RRULE:FREQ=WEEKLY;COUNT=3', startDate: '2027-01-12 19:00:00', open: false });
    expect([...repository.rows.values()].map((r) => [r.eventId, r.seriesId, r.day, r.utcOriginalStart])).toEqual([
      [57, 57, '2027-01-12', '2027-01-12 18:00:00'],
      [100, 57, '2027-01-19', '2027-01-19 18:00:00'],
      [101, 57, '2027-01-26', '2027-01-26 18:00:00'],
    ]);
  });

  it('keeps a series without COUNT or UNTIL open for the extender', async () => {
    const repository = new MemorySeriesRepository();
    const { writes } = fakeWrites(repository);
    const writer = seriesWriter(repository, writes, { ...config, recurrenceHorizonDays: 30 } as AppConfig);
    const first = event({ id: 57, slug: 'yoga', startDate: '2027-01-12 19:00:00', endDate: '2027-01-12 20:00:00' });
    repository.events.set(first.id, first); // written before its hook runs, as in a real write
    jest.useFakeTimers({ now: new Date('2027-01-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      await writer.saved(TX, parts({ recurrence: ['RRULE:FREQ=WEEKLY'] }), first, { before: null });
      expect(repository.series.get(57)).toMatchObject({ open: true, madeUntilUtc: '2027-01-31 00:00:00' });
      expect(repository.rows.size).toBe(3); // 12, 19 and 26 January
      jest.setSystemTime(new Date('2027-01-15T00:00:00Z'));
      expect(await writer.extend(TX, new ChangeSet(), 57)).toBe(2); // 2 and 9 February
      expect(await writer.extend(TX, new ChangeSet(), 57)).toBe(0); // made already
      expect([...repository.rows.values()].map((r) => r.day)).toEqual(['2027-01-12', '2027-01-19', '2027-01-26', '2027-02-02', '2027-02-09']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a rule whose EXDATE removes the event itself (nothing else is asked of the core)', async () => {
    const repository = new MemorySeriesRepository();
    const { writes, calls } = fakeWrites(repository);
    const writer = seriesWriter(repository, writes, config);
    const first = event({ id: 57, slug: 'yoga', startDate: '2027-01-12 19:00:00', endDate: '2027-01-12 20:00:00' });
    const answer = await refusal(writer.saved(TX, parts({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270112T190000'] }), first, { before: null }));
    expect(answer).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { recurrence: expect.any(String) } } });
    expect(calls).toEqual([]);
    expect(repository.series.size).toBe(0);
  });

  it('scope=this: the occurrence is detached; its delete adds an EXDATE, its restore takes it away', async () => {
    const { repository, writer } = await weekly(3);
    const second = repository.events.get(100)!;
    await writer.saved(TX, parts({ title: 'Yoga (moved)' }), second, { before: second });
    expect(repository.rows.get(100)!.detached).toBe(true);

    const deleted = parts({});
    await writer.deleting(TX, deleted, repository.events.get(101)!, { force: false });
    expect(repository.series.get(57)!.rule.split('\n')).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270126T190000']);
    // Every occurrence's `recurrence` changed: each is a change of the write (change feed, webhooks).
    expect(deleted.changes.entries().map((c) => c.id)).toEqual([57, 100, 101]);
    const trashed = Object.assign(new EventEntity(), repository.events.get(101), { status: 'trash' });
    await writer.saved(TX, parts({ status: 'publish' }), repository.events.get(101)!, { before: trashed });
    expect(repository.series.get(57)!.rule).toBe('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(repository.rows.get(101)!.detached).toBe(false);
  });

  it('scope=all carries the given fields to every other occurrence that is neither detached nor in the trash', async () => {
    const { repository, writer, calls } = await weekly(4);
    repository.rows.get(100)!.detached = true;
    repository.events.get(102)!.status = 'trash';
    calls.length = 0;
    await writer.saved(TX, parts({ title: 'Yoga in the park', scope: 'all', slug: 'other' }), repository.events.get(57)!, {
      before: repository.events.get(57)!,
    });
    expect(calls).toEqual([{ op: 'update', id: 101, input: { title: 'Yoga in the park' }, origin: SERIES_ORIGIN }]);
  });

  it('scope=all: one occurrence refused refuses the write (the error comes through)', async () => {
    const repository = new MemorySeriesRepository();
    const { writes } = fakeWrites(repository, (id) => id === 101);
    const writer = seriesWriter(repository, writes, config);
    const first = event({ id: 57, slug: 'yoga', startDate: '2027-01-12 19:00:00', endDate: '2027-01-12 20:00:00' });
    repository.events.set(57, first);
    await writer.saved(TX, parts({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }), first, { before: null });
    const answer = await refusal(writer.saved(TX, parts({ title: 'x', scope: 'all' }), first, { before: first }));
    expect(answer).toMatchObject({ code: 'rest_cannot_edit', status: 403 });
  });

  it('scope=all with a new time of day keeps every id and moves the others (ids kept by date)', async () => {
    const { repository, writer, calls } = await weekly(3);
    calls.length = 0;
    const before = Object.assign(new EventEntity(), repository.events.get(57));
    const moved = Object.assign(repository.events.get(57)!, { startDate: '2027-01-12 20:00:00', endDate: '2027-01-12 21:30:00' });
    await writer.saved(TX, parts({ start_date: '2027-01-12 20:00:00', end_date: '2027-01-12 21:30:00', scope: 'all' }), moved, { before });
    expect(calls.map((c) => [c.op, c.id, c.input.start_date, c.input.end_date])).toEqual([
      ['update', 100, '2027-01-19 20:00:00', '2027-01-19 21:30:00'],
      ['update', 101, '2027-01-26 20:00:00', '2027-01-26 21:30:00'],
    ]);
    expect(repository.series.get(57)).toMatchObject({ startDate: '2027-01-12 20:00:00', endDate: '2027-01-12 21:30:00' });
    expect([...repository.rows.values()].map((r) => [r.eventId, r.originalStart])).toEqual([
      [57, '2027-01-12 20:00:00'],
      [100, '2027-01-19 20:00:00'],
      [101, '2027-01-26 20:00:00'],
    ]);
  });

  it('scope=all moved by a day: every occurrence and the one in the trash move with it, ids kept by their moved original start', async () => {
    const { repository, writer, calls } = await weekly(3);
    await writer.deleting(TX, parts({}), repository.events.get(100)!, { force: false });
    repository.events.get(100)!.status = 'trash'; // the core trashes the addressed event itself
    calls.length = 0;
    const before = Object.assign(new EventEntity(), repository.events.get(101));
    const moved = Object.assign(repository.events.get(101)!, { startDate: '2027-01-27 19:00:00', endDate: '2027-01-27 20:00:00' });
    await writer.saved(TX, parts({ start_date: '2027-01-27 19:00:00', end_date: '2027-01-27 20:00:00', scope: 'all' }), moved, { before });
    expect(calls.map((c) => [c.op, c.id, c.input.start_date])).toEqual([
      ['update', 57, '2027-01-13 19:00:00'],
      ['update', 100, '2027-01-20 19:00:00'],
    ]);
    expect(repository.series.get(57)).toMatchObject({ rule: 'RRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:20270120T190000', startDate: '2027-01-13 19:00:00' });
    expect([...repository.rows.values()].sort((a, b) => a.eventId - b.eventId).map((r) => [r.eventId, r.day, r.originalStart, r.utcOriginalStart])).toEqual([
      [57, '2027-01-13', '2027-01-13 19:00:00', '2027-01-13 18:00:00'],
      [100, '2027-01-20', '2027-01-20 19:00:00', '2027-01-20 18:00:00'],
      [101, '2027-01-27', '2027-01-27 19:00:00', '2027-01-27 18:00:00'],
    ]);
  });

  it('scope=all: a move the rule cannot follow, or a rule without the addressed occurrence, is a 400 before anything is asked of the core', async () => {
    const { repository, writer, calls } = await weekly(3);
    calls.length = 0;
    const rule = repository.series.get(57)!.rule;
    const second = repository.events.get(100)!;
    const tooFar = Object.assign(new EventEntity(), second, { startDate: '2027-01-19 19:00:00' });
    const byRule = await refusal(
      writer.saved(TX, parts({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20270119T190000'], scope: 'all' }), second, { before: tooFar }),
    );
    expect(byRule).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { recurrence: expect.any(String) } } });
    repository.series.get(57)!.rule = 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1';
    const moved = Object.assign(new EventEntity(), second, { startDate: '2027-01-20 19:00:00', endDate: '2027-01-20 20:00:00' });
    const byMove = await refusal(writer.saved(TX, parts({ start_date: '2027-01-20 19:00:00', scope: 'all' }), moved, { before: second }));
    expect(byMove).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { start_date: expect.stringContaining('BYMONTHDAY=-1') } } });
    expect(calls).toEqual([]);
    expect(rule).toBe('RRULE:FREQ=WEEKLY;COUNT=3');
  });

  it('a restore with scope=all brings back what the series delete trashed, not what was deleted on its own before', async () => {
    const { repository, writer, calls } = await weekly(4);
    await writer.deleting(TX, parts({}), repository.events.get(100)!, { force: false });
    repository.events.get(100)!.status = 'trash';
    await writer.deleting(TX, parts({ scope: 'all' }), repository.events.get(101)!, { force: false });
    repository.events.get(101)!.status = 'trash'; // the core trashes the addressed event itself
    expect(repository.series.get(57)!.open).toBe(false);
    calls.length = 0;
    const trashed = Object.assign(new EventEntity(), repository.events.get(101));
    const restored = Object.assign(repository.events.get(101)!, { status: 'publish' });
    await writer.saved(TX, parts({ status: 'publish', scope: 'all' }), restored, { before: trashed });
    expect(calls.map((c) => [c.op, c.id, c.input.status])).toEqual([
      ['update', 57, 'publish'],
      ['update', 102, 'publish'],
    ]);
    expect(repository.series.get(57)!.rule).toBe('RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE:20270119T190000');
  });

  it('scope=all with a shorter rule trashes the occurrences whose date no longer comes out, and makes new dates', async () => {
    const { repository, writer, calls } = await weekly(3);
    calls.length = 0;
    const first = repository.events.get(57)!;
    await writer.saved(TX, parts({ recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE:20270128T190000'], scope: 'all' }), first, { before: first });
    expect(calls.map((c) => [c.op, c.id ?? null, c.input.slug ?? null])).toEqual([
      ['create', 102, 'yoga-2027-01-28'],
      ['trash', 101, null],
    ]);
    expect([...repository.rows.keys()].sort((a, b) => a - b)).toEqual([57, 100, 102]);
  });

  it('"recurrence": [] with scope=all ends the series: the addressed event stays, the others go to the trash', async () => {
    const { repository, writer, calls } = await weekly(3);
    calls.length = 0;
    const second = repository.events.get(100)!;
    await writer.saved(TX, parts({ recurrence: [], scope: 'all' }), second, { before: second });
    expect(calls.map((c) => [c.op, c.id])).toEqual([
      ['trash', 57],
      ['trash', 101],
    ]);
    expect(repository.series.size).toBe(0);
    expect(repository.rows.size).toBe(0);
  });

  it('scope=following cuts the series before the occurrence, which heads a new series with the later ones', async () => {
    const { repository, writer } = await weekly(4);
    const second = repository.events.get(100)!;
    await writer.saved(TX, parts({ title: 'Yoga 2', scope: 'following' }), second, { before: second });
    expect(repository.series.get(57)!.rule).toBe('RRULE:FREQ=WEEKLY;UNTIL=20270119T175959Z');
    expect(repository.series.get(100)).toMatchObject({ rule: 'RRULE:FREQ=WEEKLY;COUNT=3', startDate: '2027-01-19 19:00:00' });
    expect([...repository.rows.values()].map((r) => [r.eventId, r.seriesId])).toEqual([
      [57, 57],
      [100, 100],
      [101, 100],
      [102, 100],
    ]);
  });

  it('a delete with scope=following trashes this and the later occurrences and ends the rule before them', async () => {
    const { repository, writer, calls } = await weekly(4);
    calls.length = 0;
    await writer.deleting(TX, parts({ scope: 'following' }), repository.events.get(101)!, { force: false });
    expect(calls.map((c) => [c.op, c.id, c.input, c.origin])).toEqual([['trash', 102, {}, SERIES_ORIGIN]]);
    expect(repository.series.get(57)!.rule).toBe('RRULE:FREQ=WEEKLY;UNTIL=20270126T175959Z');
  });

  it('a delete for good with scope=all removes the others, the series and its rows', async () => {
    const { repository, writer, calls } = await weekly(3);
    calls.length = 0;
    await writer.deleting(TX, parts({ scope: 'all' }), repository.events.get(100)!, { force: true });
    expect(calls.map((c) => [c.op, c.id])).toEqual([
      ['delete', 57],
      ['delete', 101],
    ]);
    expect(repository.series.size).toBe(0);
    expect(repository.rows.size).toBe(0);
  });
});
