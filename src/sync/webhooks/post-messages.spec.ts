import { Batcher } from './post-messages';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('sends what was pushed during one turn of the event loop as one batch, in order', async () => {
    const sent: number[][] = [];
    const batcher = new Batcher<number>((items) => sent.push(items));
    batcher.push(1);
    batcher.push(2);
    await Promise.resolve();
    batcher.push(3); // a microtask later: still the same turn
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([[1, 2, 3]]);
  });

  it('starts a new batch in the next turn, and sends nothing when nothing was pushed', async () => {
    const sent: string[][] = [];
    const batcher = new Batcher<string>((items) => sent.push(items));
    batcher.push('a');
    await turn();
    await turn();
    batcher.push('b');
    batcher.push('c');
    await turn();
    expect(sent).toEqual([['a'], ['b', 'c']]);
  });
});
