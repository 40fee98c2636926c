import { listedHooks } from '../../../test/support/hooks';
import { invalidParam } from '../errors';
import { hookKind } from '../feature/hooks';
import { type ListCondition, type ListHook, ListHooks } from './list-hooks';

const LIST = hookKind<ListHook<ListCondition>>('test list');

describe('ListHooks.prepare', () => {
  const lists = () =>
    new ListHooks(
      listedHooks(
        LIST,
        {
          params: ['initial'],
          prepare: (q) => {
            if (q.initial === undefined) return null;
            if (typeof q.initial !== 'string' || q.initial.length !== 1) throw invalidParam('initial', 'One letter.');
            return (qb) => void qb.andWhere('1 = 1');
          },
        },
        { params: ['near', 'radius'], prepare: async (q) => (q.near === undefined ? null : () => undefined) },
      ),
      LIST,
    );

  it('collects the conditions of the hooks the request uses, and their parameters as written', async () => {
    const prepared = await lists().prepare({ initial: 'a', radius: ['1', '2'], search: 'x' }, null);
    expect(prepared.conditions).toHaveLength(1);
    expect(prepared.params).toEqual({ initial: 'a', radius: '1,2' });
  });

  it('is empty for a request that uses none', async () => {
    await expect(lists().prepare({ search: 'x' }, null)).resolves.toEqual({ conditions: [], params: {} });
  });

  it("passes a hook's 400 on", async () => {
    await expect(lists().prepare({ initial: 'ab' }, null)).rejects.toMatchObject({ code: 'rest_invalid_param', data: { params: { initial: 'One letter.' } } });
  });

  it('says which parameters a hook owns', () => {
    expect([lists().owns('radius'), lists().owns('search')]).toEqual([true, false]);
  });
});
