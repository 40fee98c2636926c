import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundaryZones, featureFolders, folderCycles, folderImports, FOUNDATIONS, sqlIn, sqlOutsideRepositories } from '../eslint-rules/folders.cjs';

// The layers are read from the folders of src/ (eslint-rules/folders.cjs, used by
// eslint.config.mjs and scripts/check-folders.js): a folder added later is a feature, inside
// the zones and the checks, without a list to edit.

/** A src/ of its own: `files` maps paths to their text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'folders-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the layers read from the folders', () => {
  let src: string;
  afterEach(() => rmSync(src, { recursive: true, force: true }));

  it('takes a new folder as a feature, with zones of its own', () => {
    src = tree({ 'common/a.ts': '', 'config/a.ts': '', 'database/a.ts': '', 'events/index.ts': '', 'tickets/index.ts': '', 'main.ts': '' });
    expect(featureFolders(src)).toEqual(['events', 'tickets']);
    const zones = boundaryZones(src);
    // tickets reaches events only through its index.ts, and the other way round.
    expect(zones).toContainEqual(expect.objectContaining({ target: './src/tickets', from: './src/events', except: ['./index.ts'] }));
    expect(zones).toContainEqual(expect.objectContaining({ target: './src/events', from: './src/tickets', except: ['./index.ts'] }));
    // No foundation imports it.
    for (const layer of FOUNDATIONS) expect(zones).toContainEqual(expect.objectContaining({ target: `./src/${layer}`, from: './src/tickets' }));
  });

  it('orders the foundations: config < common < database, each importing only those below', () => {
    src = tree({ 'common/a.ts': '', 'config/a.ts': '', 'database/a.ts': '' });
    const refused = boundaryZones(src).map((z) => `${z.target} <- ${z.from}`);
    expect(refused).toEqual(expect.arrayContaining(['./src/config <- ./src/common', './src/config <- ./src/database', './src/common <- ./src/database']));
    expect(refused).not.toContain('./src/common <- ./src/config');
    expect(refused).not.toContain('./src/database <- ./src/common');
    expect(refused).not.toContain('./src/database <- ./src/config');
  });

  it('finds a cycle between folders, through any number of them', () => {
    src = tree({
      'a/x.ts': "import { y } from '../b/y';",
      'b/y.ts': "import { z } from '../c';",
      'c/index.ts': "import { x } from '../a/x';",
      'd/w.ts': "import { x } from '../a/x';",
    });
    const edges = folderImports(src);
    expect([...edges.keys()].sort()).toEqual(['a -> b', 'b -> c', 'c -> a', 'd -> a']);
    expect(folderCycles(edges)).toEqual([['a', 'b', 'c']]);
    edges.delete('c -> a');
    expect(folderCycles(edges)).toEqual([]);
  });

  it('finds SQL outside repositories and src/database (a store file too)', () => {
    expect(sqlIn('a.ts', "db.query('SELECT 1');\nconst s = `UPDATE t SET a = ${1}`;")).toEqual([
      { line: 1, what: '.query()' },
      { line: 1, what: 'SQL text' },
      { line: 2, what: 'SQL text' },
    ]);
    expect(sqlIn('a.ts', "const s = 'Select a source';\nmanager.getRepository(X);")).toEqual([{ line: 2, what: '.getRepository()' }]);
    src = tree({
      'tickets/tickets.service.ts': "tx.createQueryBuilder().select('1');",
      'tickets/tickets.repository.ts': "db.query('SELECT 1');",
      'tickets/ticket.store.ts': "db.query('SELECT 1');",
      'database/sql.ts': "db.query('SELECT 1');",
      'tickets/tickets.service.spec.ts': "db.query('SELECT 1');",
    });
    expect([...sqlOutsideRepositories(src).keys()].sort()).toEqual(['tickets/ticket.store.ts', 'tickets/tickets.service.ts']);
  });
});
