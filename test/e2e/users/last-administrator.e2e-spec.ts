// user:delete keeps the last administrator unless told --force, through the
// real CLI, on a SQLite file or on a fresh MariaDB database with TEST_DATABASE_URL.
import { cliDatabase, runCli } from '../../support/cli';

// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(180_000);

describe('user:delete and the last administrator', () => {
  let db: Awaited<ReturnType<typeof cliDatabase>>;
  let cli: (...args: string[]) => ReturnType<typeof runCli>;
  beforeEach(async () => {
    db = await cliDatabase();
    cli = (...args) => runCli(args, { DATABASE_URL: db.url });
  });
  afterEach(async () => db.remove());

  const logins = async () => [...(await cli('user:list')).stdout.matchAll(/^\d+\t(\S+)\t/gm)].map((m) => m[1]);

  it('refuses to delete the last administrator, saying why, and deletes it with --force', async () => {
    expect((await cli('user:create', 'admin', '--role', 'administrator')).code).toBe(0);
    expect((await cli('user:create', 'alice', '--role', 'editor')).code).toBe(0);

    const refused = await cli('user:delete', 'admin', '--reassign', 'alice');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toBe(
      '"admin" is the last administrator: without one, nobody can manage webhooks through the API. ' +
        'Create another first (npm run cli -- user:create LOGIN --role administrator), or add --force to delete it anyway.',
    );
    expect(await logins()).toEqual(['admin', 'alice']);

    const forced = await cli('user:delete', 'admin', '--reassign', 'alice', '--force');
    expect(forced).toMatchObject({ code: 0, stdout: 'Deleted "admin"; no administrator is left.\n' });
    expect(await logins()).toEqual(['alice']);
  });

  it('deletes an administrator while another remains; other roles are not concerned', async () => {
    await cli('user:create', 'root1', '--role', 'administrator');
    await cli('user:create', 'root2', '--role', 'administrator');
    await cli('user:create', 'ed', '--role', 'editor');
    expect(await cli('user:delete', 'root1')).toMatchObject({ code: 0, stdout: 'Deleted "root1".\n' });
    expect((await cli('user:delete', 'root2')).code).toBe(1);
    expect(await cli('user:delete', 'ed')).toMatchObject({ code: 0, stdout: 'Deleted "ed".\n' });
    expect(await logins()).toEqual(['root2']);
  });

  it('two deletes at once of the two administrators: one of them is refused', async () => {
    await cli('user:create', 'one', '--role', 'administrator');
    await cli('user:create', 'two', '--role', 'administrator');
    const results = await Promise.all([cli('user:delete', 'one'), cli('user:delete', 'two')]);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(results.find((r) => r.code === 1)?.stderr).toContain('is the last administrator');
    expect(await logins()).toHaveLength(1);
  });
});
