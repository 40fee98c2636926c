import { listedHooks } from '../../test/support/hooks';
import { EventEntity } from './entities/event.entity';
import { ICAL_HOOKS, type IcalHook, IcalHooks } from './event-ical-hooks';

const row = (id: number) => Object.assign(new EventEntity(), { id });

describe('IcalHooks.plan: the iCalendar hooks’ plans as one', () => {
  it('leaves out and adds what any hook says, keeps every property in order, and the first UID and times given', async () => {
    const first: IcalHook = {
      icalPlan: async () => ({
        omit: new Set([1]),
        uids: new Map([[2, 'first@x']]),
        properties: new Map([[2, [{ name: 'X-A', value: '1' }]]]),
        times: new Map([[2, { start: 'a', end: 'b', utcStart: 'c', utcEnd: 'd' }]]),
      }),
    };
    const second: IcalHook = {
      icalPlan: async () => ({
        omit: new Set([3]),
        add: [row(9)],
        uids: new Map([[2, 'second@x']]),
        properties: new Map([[2, [{ name: 'X-B', value: '2' }]]]),
        times: new Map([[2, { start: 'e', end: 'f', utcStart: 'g', utcEnd: 'h' }]]),
      }),
    };
    const plan = await new IcalHooks(listedHooks(ICAL_HOOKS, first, second)).plan([row(1), row(2), row(3)], false, 'service');
    expect([...plan.omit]).toEqual([1, 3]);
    expect(plan.add.map((e) => e.id)).toEqual([9]);
    expect(plan.uids.get(2)).toBe('first@x');
    expect(plan.times.get(2)?.start).toBe('a');
    expect(plan.properties.get(2)?.map((p) => p.name)).toEqual(['X-A', 'X-B']);
  });
});
