import { listedHooks } from '../../test/support/hooks';
import { hookKind } from '../common/feature/hooks';
import { type ItemHook, ItemHooks } from './item-hooks';

type Item = { id: number };

const ITEM_HOOKS = hookKind<ItemHook<Item>>('test item');

/** A hook of items giving the same checks and output for every item. */
function hook(checks: Record<string, string>, fields: Record<string, unknown>): ItemHook<Item> {
  return {
    params: Object.keys(checks),
    check: () => checks,
    present: async (items) => new Map(items.map((i) => [i.id, { fields }])),
  };
}

describe('ItemHooks: the merge rule of every hook (README "Hooks")', () => {
  const registry = new ItemHooks<Item>(
    listedHooks(ITEM_HOOKS, hook({ x: 'first' }, { hall: 'A', seats: 1 }), hook({ x: 'second', y: 'bad y' }, { hall: 'B', level: 2 })),
    ITEM_HOOKS,
    hookKind('test item list'),
  );

  it('keeps the first message given for a parameter', async () => {
    expect(await registry.check({}, { actor: null, current: null })).toEqual({ x: 'first', y: 'bad y' });
  });

  it('keeps the first value given for a key, in the hooks’ order', async () => {
    const merged = await registry.present([{ id: 7 }]);
    expect(merged.get(7)!.fields).toEqual({ hall: 'A', seats: 1, level: 2 });
    expect(Object.keys(merged.get(7)!.fields!)).toEqual(['hall', 'seats', 'level']);
  });
});
