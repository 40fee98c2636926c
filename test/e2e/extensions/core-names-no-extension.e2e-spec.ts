// No core file names a test-only module: the modules under test/extensions
// prove that a team can add a field, a filter, a route, a table and a page fragment by writing
// only its own module, which holds only while nothing under src/ knows of them — not in code,
// comments, specs or docs. The names come from the list of test-only features, so a module added
// there is covered too. (A pure check of files: it starts no app and no database.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TEST_EXTENSIONS } from '../../extensions';

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');
const EXTENSIONS = join(ROOT, 'test', 'extensions');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the core names no test-only module', () => {
  const names = TEST_EXTENSIONS.map((f) => f.name);

  it('lists every module under test/extensions, each in the folder of its name', () => {
    const folders = readdirSync(EXTENSIONS).filter((name) => statSync(join(EXTENSIONS, name)).isDirectory());
    expect([...folders].sort()).toEqual([...names].sort());
  });

  it.each(names)('no file under src/ contains "%s" (in any case)', (name) => {
    const word = name.toLowerCase();
    const naming = filesUnder(SRC).filter((f) => readFileSync(f, 'utf8').toLowerCase().includes(word));
    expect(naming.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
