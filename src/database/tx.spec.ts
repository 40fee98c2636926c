import type { DataSource, EntityManager } from 'typeorm';
import { OUTER, type Reader, type Tx } from './tx';

/**
 * The type half of the typed transaction handle, checked by `npm run typecheck`: each
 * `@ts-expect-error` below fails the compile as soon as the line it marks compiles, that is as
 * soon as the outer connection could be handed to a write.
 */
describe('Tx', () => {
  const write = (_tx: Tx) => undefined;
  const read = (_reader: Reader) => undefined;

  it('is not assignable from the outer connection', () => {
    const db = {} as DataSource;
    const manager = {} as EntityManager;
    // @ts-expect-error the data source is not a transaction handle
    write(db);
    // @ts-expect-error nor is a plain manager (db.manager, or one of another transaction)
    write(manager);
    // @ts-expect-error nor is OUTER
    write(OUTER);
    // @ts-expect-error a read that may run in a write takes the Tx or OUTER, not the data source
    read(db);
    // @ts-expect-error nor a plain manager
    read(manager);
    read(OUTER);
    expect(OUTER).toEqual({});
  });
});
