import { listedHooks } from '../../test/support/hooks';
import type { RecordExtras } from '../items';
import { EventEntity } from './entities/event.entity';
import { EVENT_HOOKS, type EventHook, EventHooks } from './event-hooks';
import { ROUTE_ORIGIN } from './event-write-origin';

const rows = [Object.assign(new EventEntity(), { id: 1 }), Object.assign(new EventEntity(), { id: 2 })];

const hooksOf = (...hooks: EventHook[]) => new EventHooks(listedHooks(EVENT_HOOKS, ...hooks));

/** A hook presenting the same extras for every event, counting its calls. */
function presenting(extras: RecordExtras, calls: number[]): EventHook {
  return {
    params: [],
    present: async (events: readonly EventEntity[]) => {
      calls.push(events.length);
      return new Map(events.map((e) => [e.id, extras]));
    },
  };
}

describe('EventHooks.present', () => {
  it('asks each hook once for the whole page and merges per event in the hooks’ order, the first key kept', async () => {
    const calls: number[] = [];
    const registry = hooksOf(
      presenting({ fields: { seats: 1, hall: 'A' }, jsonLd: { doorTime: '18:30' } }, calls),
      { params: [] },
      presenting({ fields: { hall: 'B', level: 2 } }, calls),
    );
    const merged = await registry.present(rows);
    expect(calls).toEqual([2, 2]);
    expect(merged.get(2)).toEqual({ fields: { seats: 1, hall: 'A', level: 2 }, jsonLd: { doorTime: '18:30' } });
    expect(Object.keys(merged.get(1)!.fields!)).toEqual(['seats', 'hall', 'level']);
  });

  it('asks nothing for an empty page', async () => {
    const calls: number[] = [];
    const registry = hooksOf(presenting({ fields: { seats: 1 } }, calls));
    expect((await registry.present([])).size).toBe(0);
    expect(calls).toEqual([]);
  });
});

describe('EventHooks.check', () => {
  it('merges every hook’s refusals', async () => {
    const registry = hooksOf({ params: ['x'], check: () => ({ x: 'bad x' }) }, { params: ['y'], check: async () => ({ y: 'bad y' }) });
    await expect(registry.check({}, { actor: null, current: null, origin: ROUTE_ORIGIN })).resolves.toEqual({ x: 'bad x', y: 'bad y' });
  });

  it('keeps the first message given for a parameter (the merge rule of every hook)', async () => {
    const registry = hooksOf({ params: ['x'], check: () => ({ x: 'first' }) }, { params: ['x'], check: () => ({ x: 'second', y: 'bad y' }) });
    await expect(registry.check({}, { actor: null, current: null, origin: ROUTE_ORIGIN })).resolves.toEqual({ x: 'first', y: 'bad y' });
  });

  it('says which write parameters the hooks own', () => {
    const registry = hooksOf({ params: ['x'] }, { params: ['y', 'z'] });
    expect(registry.params()).toEqual(['x', 'y', 'z']);
    expect([registry.owns('z'), registry.owns('title')]).toEqual([true, false]);
  });
});
