import { assertIfMatch, assertUnchanged, tagOfJson } from './preconditions';

describe('If-Match preconditions', () => {
  const body = { id: 1, title: 'A' };
  const tag = tagOfJson(body);

  it('no header: nothing is checked, not even read', async () => {
    const read = jest.fn();
    await assertIfMatch(undefined, read);
    await assertIfMatch('*', read);
    expect(read).not.toHaveBeenCalled();
  });

  it('the current tag passes; a stale one, or an unreadable item, is 412', async () => {
    await expect(assertIfMatch(tag, async () => body)).resolves.toBeUndefined();
    await expect(assertIfMatch(tag, async () => ({ ...body, title: 'B' }))).rejects.toMatchObject({ code: 'rest_precondition_failed', status: 412 });
    await expect(assertIfMatch(tag, async () => null)).rejects.toMatchObject({ status: 412 });
  });

  it('inside the write: the locked row must be the row checked, whatever its key order', () => {
    expect(() => assertUnchanged(tag, { a: 1, b: 'x' }, { b: 'x', a: 1 })).not.toThrow();
    expect(() => assertUnchanged(tag, { a: 1, b: 'x' }, { a: 1, b: 'y' })).toThrow(expect.objectContaining({ status: 412 }));
    expect(() => assertUnchanged(tag, { a: 1 }, null)).toThrow(expect.objectContaining({ status: 412 }));
    expect(() => assertUnchanged(undefined, { a: 1 }, { a: 2 })).not.toThrow();
  });
});
