import { WpError } from '../common/errors';
import { ChangeSet } from '../database/change-log';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { sameRow, tagOfJson } from '../common/http/preconditions';
import { deleteForGood, PermanentDelete } from './permanent-delete';

type Row = { id: number; status: string };

/** An operation over rows as `locked` returns them in turn (the row inside each attempt's transaction). */
function operation(found: Row, locked: (Row | null)[], reread: Row[] = [], ifMatch?: string): PermanentDelete<Row> & { removed: Row[]; presented: Row[] } {
  const removed: Row[] = [];
  const presented: Row[] = [];
  return {
    type: 'venue',
    found,
    condition: { ifMatch, body: async (item) => ({ ...item }) },
    reread: jest.fn(async () => reread.shift() as Row),
    assertMayDelete: jest.fn(),
    present: async (item) => {
      presented.push(item);
      return { ...item };
    },
    lock: async () => locked.shift() ?? null,
    gone: () => new WpError('gone', 'gone', 400),
    remove: async (_tx, item) => {
      removed.push(item);
    },
    removed,
    presented,
  };
}

describe('deleteForGood', () => {
  it('presents the item, then removes the locked row and records the change', async () => {
    const row = { id: 7, status: 'publish' };
    const recorded: ChangeSet[] = [];
    const op = operation(row, [{ ...row }]);

    await expect(deleteForGood(fakeUnitOfWork(recorded), op)).resolves.toEqual({ deleted: true, previous: row });

    expect(op.removed).toEqual([row]);
    expect(recorded[0].entries()).toEqual([{ type: 'venue', id: 7 }]);
    expect(op.reread).not.toHaveBeenCalled();
  });

  it('answers the route’s unknown-item error when a concurrent delete came first, removing nothing', async () => {
    const op = operation({ id: 7, status: 'publish' }, [null]);
    await expect(deleteForGood(fakeUnitOfWork([]), op)).rejects.toMatchObject({ code: 'gone' });
    expect(op.removed).toEqual([]);
  });

  it('starts again from a fresh read, with the permission checked again, when the row changed after it was presented', async () => {
    const trashed = { id: 7, status: 'trash' };
    const op = operation({ id: 7, status: 'publish' }, [trashed, { ...trashed }], [trashed]);

    const answer = await deleteForGood(fakeUnitOfWork([]), op);

    expect(answer.previous).toEqual(trashed);
    expect(op.presented).toEqual([{ id: 7, status: 'publish' }, trashed]);
    expect(op.assertMayDelete).toHaveBeenCalledWith(trashed);
    expect(op.removed).toEqual([trashed]);
  });

  it('keeps what it presented on the last attempt rather than failing a delete that keeps colliding', async () => {
    const changing = (n: number) => ({ id: 7, status: `s${n}` });
    const op = operation(changing(0), [changing(1), changing(2), changing(3)], [changing(1), changing(2)]);

    const answer = await deleteForGood(fakeUnitOfWork([]), op);

    expect(answer.previous).toEqual(changing(2));
    expect(op.removed).toEqual([changing(3)]);
  });

  it('under If-Match: a stale tag is 412 before any write, and a row changed before the lock is 412 rather than a retry', async () => {
    const row = { id: 7, status: 'publish' };
    const stale = operation(row, [{ ...row }], [], '"stale"');
    await expect(deleteForGood(fakeUnitOfWork([]), stale)).rejects.toMatchObject({ code: 'rest_precondition_failed' });
    expect(stale.removed).toEqual([]);

    const changed = operation(row, [{ id: 7, status: 'draft' }], [], tagOfJson(row));
    await expect(deleteForGood(fakeUnitOfWork([]), changed)).rejects.toMatchObject({ code: 'rest_precondition_failed' });
    expect(changed.reread).not.toHaveBeenCalled();
    expect(changed.removed).toEqual([]);

    const current = operation(row, [{ ...row }], [], tagOfJson(row));
    await expect(deleteForGood(fakeUnitOfWork([]), current)).resolves.toEqual({ deleted: true, previous: row });
  });
});

describe('sameRow', () => {
  it.each([
    [{ id: 1, a: 'x', b: null }, { id: 1, a: 'x', b: null }, true],
    [{ id: 1, a: 'x' }, { id: 1, a: 'y' }, false],
    [{ id: 1, a: 'x' }, { id: 1, a: 'x', b: 2 }, false],
    [{ id: 1, flag: true }, { id: 1, flag: 1 }, false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameRow(a, b)).toBe(same);
  });
});
