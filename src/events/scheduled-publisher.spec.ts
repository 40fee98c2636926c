import { Settings } from 'luxon';
import { loadConfig } from '../config/app-config';
import { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import type { TermsService } from '../taxonomies';
import type { EventsRepository } from './events.repository';
import { ScheduledPublisher } from './scheduled-publisher';

/** Stored events, as the fake repository holds them. */
type Row = { id: number; status: string; dateUtc: string };

const at = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

/**
 * A publisher on fakes: an in-memory events table, taxonomies that note each publication, and a
 * unit of work that runs the work once with a fresh ChangeSet. `stolen`: ids another instance
 * publishes between this one's SELECT and its UPDATE.
 */
function publisherOn(rows: Row[], opts: { pollSeconds?: string; stolen?: number[] } = {}) {
  const published: number[] = [];
  const changeSets: ChangeSet[] = [];
  const events = {
    nextScheduledUtc: jest.fn(async () =>
      rows.filter((r) => r.status === 'future').reduce<string | null>((m, r) => (m === null || r.dateUtc < m ? r.dateUtc : m), null),
    ),
    dueScheduledIds: jest.fn(async (now: string) => rows.filter((r) => r.status === 'future' && r.dateUtc <= now).map((r) => r.id)),
    publishIfScheduled: jest.fn(async (id: number) => {
      const row = rows.find((r) => r.id === id)!;
      if (opts.stolen?.includes(id)) row.status = 'publish';
      if (row.status !== 'future') return false;
      row.status = 'publish';
      return true;
    }),
  };
  const taxonomies = { eventPublicationChanged: jest.fn(async (_tx: Tx, id: number, isPublished: boolean) => void (isPublished && published.push(id))) };
  const unitOfWork = fakeUnitOfWork(changeSets);
  const config = loadConfig({ CALENDAR_SCHEDULE_POLL_SECONDS: opts.pollSeconds ?? '0' });
  const publisher = new ScheduledPublisher(events as unknown as EventsRepository, taxonomies as unknown as TermsService, unitOfWork, config);
  const recorded = () => changeSets.flatMap((c) => c.entries());
  return { publisher, events, published, recorded, writes: () => changeSets.length };
}

describe('ScheduledPublisher', () => {
  const realNow = Settings.now;
  const setNow = (utc: string) => (Settings.now = () => at(utc));
  afterEach(() => {
    Settings.now = realNow;
    jest.useRealTimers();
  });

  it('publishes the due scheduled events only: one change and one count each', async () => {
    const rows = [
      { id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' },
      { id: 2, status: 'future', dateUtc: '2030-01-01 12:00:00' },
      { id: 3, status: 'draft', dateUtc: '2029-01-01 10:00:00' },
      { id: 4, status: 'future', dateUtc: '2030-01-01 11:00:00' },
    ];
    const { publisher, published, recorded } = publisherOn(rows);
    setNow('2030-01-01 11:00:00');
    expect(await publisher.tick()).toBe(2);
    expect(rows.map((r) => r.status)).toEqual(['publish', 'future', 'draft', 'publish']);
    expect(published).toEqual([1, 4]);
    expect(recorded()).toEqual([
      { type: 'event', id: 1 },
      { type: 'event', id: 4 },
    ]);
  });

  it('leaves an event another instance published first to that instance: no change, no count', async () => {
    const rows = [
      { id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' },
      { id: 2, status: 'future', dateUtc: '2030-01-01 10:00:00' },
    ];
    const { publisher, published, recorded } = publisherOn(rows, { stolen: [1] });
    setNow('2030-01-01 10:00:01');
    expect(await publisher.tick()).toBe(1);
    expect(published).toEqual([2]);
    expect(recorded()).toEqual([{ type: 'event', id: 2 }]);
  });

  it('opens no unit of work while nothing is due', async () => {
    const { publisher, writes } = publisherOn([{ id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' }]);
    setNow('2030-01-01 09:59:59');
    expect(await publisher.tick()).toBe(0);
    expect(writes()).toBe(0);
  });

  it('tells readers when an event is due, from the schedule it read and the writes it was told of', async () => {
    const rows = [{ id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' }];
    const { publisher } = publisherOn(rows);
    setNow('2030-01-01 09:00:00');
    await publisher.onApplicationBootstrap();
    expect([publisher.hasDue(), publisher.dueCutoff()]).toEqual([false, undefined]);
    publisher.noteScheduled('2030-01-01 09:30:00', 'future');
    publisher.noteScheduled('2030-01-01 08:00:00', 'draft'); // not scheduled: no date to wait for
    setNow('2030-01-01 09:45:00');
    expect([publisher.hasDue(), publisher.dueCutoff()]).toEqual([true, '2030-01-01 09:45:00']);
  });

  it('wakes at the date of the next scheduled event it knows of, without waiting for the poll', async () => {
    jest.useFakeTimers({ now: at('2030-01-01 09:59:58') });
    const rows = [{ id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' }];
    const { publisher, published } = publisherOn(rows, { pollSeconds: '3600' });
    await publisher.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1900);
    expect(published).toEqual([]);
    await jest.advanceTimersByTimeAsync(200);
    expect(published).toEqual([1]);
    await publisher.onModuleDestroy();
  });

  it('does not publish on a timer when polling is off (CALENDAR_SCHEDULE_POLL_SECONDS=0)', async () => {
    jest.useFakeTimers({ now: at('2030-01-01 09:59:58') });
    const { publisher, published } = publisherOn([{ id: 1, status: 'future', dateUtc: '2030-01-01 10:00:00' }], { pollSeconds: '0' });
    await publisher.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(published).toEqual([]);
  });
});
