import { join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import transactions from '../../eslint-rules/transactions.cjs';

/**
 * The lint half of the typed transaction handle (docs/architecture.md, "Unit of work and `Tx`"): a read on
 * the outer connection inside a write is rejected, the same read through the write's Tx is
 * accepted. Each case is type-checked against the real Tx, Reader and UnitOfWork.
 */
const fixtures = join(__dirname, '../../eslint-rules/fixtures');
const filename = join(fixtures, 'file.ts');

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    // With CI=true typescript-eslint would build each program once (single run) and type the file
    // on disk, not each case's code: every case here must be typed anew.
    parserOptions: { project: './tsconfig.json', tsconfigRootDir: fixtures, disallowAutomaticSingleRunInference: true },
  },
});

/** What the cases share: the real handle types, and a repository shaped like ours. */
const PRELUDE = `
import { OUTER, type Reader, type Tx } from '../../src/database/tx';
import type { UnitOfWork } from '../../src/database/unit-of-work';
interface Row { id: number; status: string }
interface EventsRepository {
  findById(id: number): Promise<Row | null>;
  findForUpdate(id: number, tx: Tx): Promise<Row | null>;
  findLive(ids: number[], reader: Reader): Promise<Row[]>;
  save(row: Row, tx: Tx): Promise<void>;
}
declare const unitOfWork: UnitOfWork;
declare const events: EventsRepository;
declare const outer: { query(sql: string): Promise<unknown[]>; getRepository(name: string): { findOne(id: number): Promise<unknown> } };
declare function writeUnderFreeSlug(base: string, write: (slug: string) => Promise<void>): Promise<void>;
void OUTER;
`;

const valid = (name: string, code: string) => ({ name, code: PRELUDE + code, filename });
const invalid = (name: string, code: string, ...messageIds: string[]) => ({
  name,
  code: PRELUDE + code,
  filename,
  errors: messageIds.map((messageId) => ({ messageId })),
});

describe('tx/no-outer-connection-in-write', () => {
  tester.run('no-outer-connection-in-write', transactions.rules['no-outer-connection-in-write'], {
    valid: [
      valid(
        'every query through the handle: methods given it, the handle itself, locals made from it',
        `
        export const update = (id: number) =>
          unitOfWork.run(async (tx, changes) => {
            changes.record('event', id);
            const row = await events.findForUpdate(id, tx);
            if (row) await events.save({ ...row, status: 'trash' }, tx);
            await events.findLive([id], tx);
            await tx.query('SELECT 1');
            const repo = tx.getRepository('events');
            await repo.findOne({ where: { id } });
            await Promise.all([events.findForUpdate(1, tx), events.findForUpdate(2, tx)]);
          });`,
      ),
      valid(
        'local helpers and callbacks, checked where they are written',
        `
        export async function store(tx: Tx, row: Row): Promise<void> {
          const find = () => events.findForUpdate(row.id, tx);
          const write = async (slug: string) => events.save({ ...row, status: slug }, tx);
          await find();
          await writeUnderFreeSlug('base', write);
        }`,
      ),
      valid(
        'outside writes, the outer connection named at the call site',
        `
        export async function read(id: number): Promise<void> {
          await events.findById(id);
          await events.findLive([id], OUTER);
          await outer.query('SELECT 1');
        }`,
      ),
      valid(
        'a function given a Reader (which may be OUTER) is not a write',
        `
        export const live = (reader: Reader) => outer.query('SELECT 1').then(() => events.findLive([1], reader));`,
      ),
    ],
    invalid: [
      invalid(
        'the case of the issue: a read on the outer connection inside the write (on SQLite it waits forever)',
        `
        export const trash = (id: number) =>
          unitOfWork.run(async (tx) => {
            const row = await events.findById(id);
            if (row) await events.save(row, tx);
          });`,
        'outer',
      ),
      invalid(
        'OUTER named inside a write whose callback takes no parameters',
        `export const a = () => unitOfWork.run(async () => { await events.findLive([1], OUTER); });`,
        'outer',
      ),
      invalid(
        'a promise returned rather than awaited',
        `export const b = () => unitOfWork.run((tx) => events.findForUpdate(1, tx).then(() => events.findById(1)));`,
        'outer',
      ),
      invalid(
        'the outer connection itself, directly and through a local made from it',
        `
        export const c = () =>
          unitOfWork.run(async (tx) => {
            await outer.query('SELECT 1');
            const repo = outer.getRepository('events');
            await repo.findOne(1);
            return tx;
          });`,
        'outer',
        'outer',
      ),
      invalid(
        'inside a function given a Tx (a write helper), in a callback it passes on',
        `
        export async function helper(tx: Tx, id: number): Promise<void> {
          await events.save({ id, status: 'publish' }, tx);
          await writeUnderFreeSlug('base', async () => {
            await events.findById(id);
          });
        }`,
        'outer',
      ),
      invalid(
        'a second unit of work inside a write',
        `export const d = () => unitOfWork.run(async (tx) => unitOfWork.run(async (inner) => events.save({ id: 1, status: '' }, inner)).then(() => tx));`,
        'nested',
      ),
      invalid(
        'an unlogged write inside a write',
        `export const d2 = () => unitOfWork.run(async (tx) => unitOfWork.runUnlogged(async (inner) => events.save({ id: 1, status: '' }, inner)).then(() => tx));`,
        'nested',
      ),
    ],
  });
});

describe('tx/no-tx-assertion', () => {
  tester.run('no-tx-assertion', transactions.rules['no-tx-assertion'], {
    valid: [valid('a Tx passed on as it was given', `export const e = (tx: Tx) => events.save({ id: 1, status: '' }, tx);`)],
    invalid: [
      invalid('as Tx', `export const f = () => events.save({ id: 1, status: '' }, outer as unknown as Tx);`, 'assertion'),
      invalid('<Reader> (a union with Tx)', `export const g = () => events.findLive([1], <Reader>(<unknown>outer));`, 'assertion'),
    ],
  });
});

/**
 * Every transaction outside src/database goes through UnitOfWork.run: a
 * transaction opened on the data source, an entity manager (a Tx too) or a query runner is
 * refused, whatever the receiver is called; a method of that name on anything else is not.
 */
describe('tx/no-raw-transaction', () => {
  const typeorm = `
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
declare const db: DataSource;
declare const manager: EntityManager;
declare const runner: QueryRunner;
declare const redis: { transaction(): Promise<void>; multi(): Promise<void> };
`;
  tester.run('no-raw-transaction', transactions.rules['no-raw-transaction'], {
    valid: [
      valid('a write through the unit of work', `export const h = () => unitOfWork.run(async (tx) => events.save({ id: 1, status: '' }, tx));`),
      valid('a method of that name on something that is no database handle', `${typeorm}export const i = () => redis.transaction();`),
    ],
    invalid: [
      invalid('on the data source', `${typeorm}export const j = () => db.transaction(async (m) => m.query('SELECT 1'));`, 'raw'),
      invalid(
        'with an isolation level, on a manager',
        `${typeorm}export const k = () => manager.transaction('READ COMMITTED', async (m) => m.query('SELECT 1'));`,
        'raw',
      ),
      invalid('on the Tx a write was given (a nested transaction)', `export const l = (tx: Tx) => tx.transaction(async (m) => m.query('SELECT 1'));`, 'raw'),
      invalid('on a query runner', `${typeorm}export const m = () => runner.startTransaction();`, 'raw'),
      invalid('through a getter chain', `${typeorm}export const n = () => db.manager.transaction(async (m) => m.query('SELECT 1'));`, 'raw'),
    ],
  });
});
