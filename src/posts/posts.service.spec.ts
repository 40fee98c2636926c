import type { DataSource } from 'typeorm';
import { Dialect } from '../database/dialect';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';

/**
 * allocateIn on a fake manager that answers the INSERT as each driver does (SQLite: the last
 * rowid; mysql2: a header with the first id) and the lock-mode read as the server's settings say.
 */
function engine(kind: 'sqlite' | 'mysql', settings = { mode: 1, step: 1 }) {
  let next = 41;
  const statements: string[] = [];
  const query = jest.fn(async (sql: string, params: unknown[] = []) => {
    statements.push(sql);
    if (sql.startsWith('SELECT @@')) return [settings];
    const rows = params.length;
    const first = next;
    next += rows * settings.step;
    return kind === 'mysql' ? { insertId: first } : first + (rows - 1) * settings.step;
  });
  const posts = new PostsService(new PostsRepository({} as DataSource, new Dialect(kind)));
  return { posts, tx: { query } as never, statements };
}

describe('PostsService.allocateIn', () => {
  it('takes the ids of one multi-row INSERT on SQLite (one writer, the last rowid reported)', async () => {
    const { posts, tx, statements } = engine('sqlite');
    expect(await posts.allocateIn('event', 4, tx)).toEqual([41, 42, 43, 44]);
    expect(statements).toEqual(['INSERT INTO posts (type) VALUES (?), (?), (?), (?)']);
  });

  it('on InnoDB with consecutive ids (lock mode 1), from the first id by auto_increment_increment', async () => {
    const { posts, tx, statements } = engine('mysql', { mode: 1, step: 3 });
    expect(await posts.allocateIn('event', 3, tx)).toEqual([41, 44, 47]);
    expect(statements).toHaveLength(2);
  });

  it('one INSERT per id under lock mode 2 (Galera), where a concurrent INSERT may interleave', async () => {
    const { posts, tx, statements } = engine('mysql', { mode: 2, step: 1 });
    expect(await posts.allocateIn('event', 3, tx)).toEqual([41, 42, 43]);
    expect(statements.filter((s) => s === 'INSERT INTO posts (type) VALUES (?)')).toHaveLength(3);
  });

  it('splits a long list into INSERTs of at most 1,000 rows', async () => {
    const { posts, tx, statements } = engine('sqlite');
    const ids = await posts.allocateIn('event', 2_500, tx);
    expect(ids).toEqual(Array.from({ length: 2_500 }, (_, i) => 41 + i));
    expect(statements).toHaveLength(3);
  });
});
