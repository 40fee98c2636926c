import { EventEntity } from './entities/event.entity';
import { EventExtensions, type EventExtras } from './event-extensions';
import { ROUTE_ORIGIN } from './event-write-origin';

const rows = [Object.assign(new EventEntity(), { id: 1 }), Object.assign(new EventEntity(), { id: 2 })];

/** An extension presenting the same extras for every event, counting its calls. */
function presenting(name: string, extras: EventExtras, calls: number[]) {
  return {
    name,
    params: [],
    present: async (events: readonly EventEntity[]) => {
      calls.push(events.length);
      return new Map(events.map((e) => [e.id, extras]));
    },
  };
}

describe('EventExtensions.present', () => {
  it('asks each extension once for the whole page and merges per event in registration order, the first key kept', async () => {
    const calls: number[] = [];
    const registry = new EventExtensions();
    registry.register(presenting('a', { fields: { seats: 1, room: 'A' }, jsonLd: { doorTime: '18:30' } }, calls));
    registry.register({ name: 'no output', params: [] });
    registry.register(presenting('b', { fields: { room: 'B', floor: 2 } }, calls));
    const merged = await registry.present(rows);
    expect(calls).toEqual([2, 2]);
    expect(merged.get(2)).toEqual({ fields: { seats: 1, room: 'A', floor: 2 }, jsonLd: { doorTime: '18:30' } });
    expect(Object.keys(merged.get(1)!.fields!)).toEqual(['seats', 'room', 'floor']);
  });

  it('asks nothing for an empty page', async () => {
    const calls: number[] = [];
    const registry = new EventExtensions();
    registry.register(presenting('a', { fields: { seats: 1 } }, calls));
    expect((await registry.present([])).size).toBe(0);
    expect(calls).toEqual([]);
  });
});

describe('EventExtensions.check', () => {
  it('merges every extension’s refusals', async () => {
    const registry = new EventExtensions();
    registry.register({ name: 'a', params: ['x'], check: () => ({ x: 'bad x' }) });
    registry.register({ name: 'b', params: ['y'], check: async () => ({ y: 'bad y' }) });
    await expect(registry.check({}, { actor: null, current: null, origin: ROUTE_ORIGIN })).resolves.toEqual({ x: 'bad x', y: 'bad y' });
  });

  it('keeps the first message given for a parameter (the merge rule of every hook)', async () => {
    const registry = new EventExtensions();
    registry.register({ name: 'a', params: ['x'], check: () => ({ x: 'first' }) });
    registry.register({ name: 'b', params: ['x'], check: () => ({ x: 'second', y: 'bad y' }) });
    await expect(registry.check({}, { actor: null, current: null, origin: ROUTE_ORIGIN })).resolves.toEqual({ x: 'first', y: 'bad y' });
  });
});
