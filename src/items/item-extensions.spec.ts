import { ItemExtensions, type ItemExtension } from './item-extensions';

type Item = { id: number };

/** An extension of items giving the same checks and output for every item. */
function extension(checks: Record<string, string>, fields: Record<string, unknown>): ItemExtension<Item> {
  return {
    params: Object.keys(checks),
    check: () => checks,
    save: async () => undefined,
    remove: async () => undefined,
    present: async (items) => new Map(items.map((i) => [i.id, { fields }])),
  };
}

describe('ItemExtensions: the merge rule of every hook (README "Hooks")', () => {
  const registry = new ItemExtensions<Item>();
  registry.register(extension({ x: 'first' }, { room: 'A', seats: 1 }));
  registry.register(extension({ x: 'second', y: 'bad y' }, { room: 'B', floor: 2 }));

  it('keeps the first message given for a parameter', () => {
    expect(registry.check({}, true)).toEqual({ x: 'first', y: 'bad y' });
  });

  it('keeps the first value given for a key, in registration order', async () => {
    const merged = await registry.present([{ id: 7 }]);
    expect(merged.get(7)!.fields).toEqual({ room: 'A', seats: 1, floor: 2 });
    expect(Object.keys(merged.get(7)!.fields!)).toEqual(['room', 'seats', 'floor']);
  });
});
