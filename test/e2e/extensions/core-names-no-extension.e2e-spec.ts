// No core file names an extension: the extensions in extensions/ prove that a team can add a
// field, a filter, a route, a table, a setting and a command by writing only its own folder,
// which holds only while nothing under src/ knows of them — not in code, comments, specs or
// docs. The names come from the extensions installed, so one added there is covered too. (A
// pure check of files: it starts no app and no database.)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXTENSIONS_FOLDER, FEATURES, installedFeatures } from '../../../src/features';

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the core names no extension', () => {
  const names = installedFeatures()
    .slice(FEATURES.length)
    .map((f) => f.name);

  it('installs every folder of extensions/, as a feature of its name', () => {
    const folders = existsSync(EXTENSIONS_FOLDER) ? readdirSync(EXTENSIONS_FOLDER).filter((name) => statSync(join(EXTENSIONS_FOLDER, name)).isDirectory()) : [];
    expect([...names].sort()).toEqual([...folders].sort());
  });

  it('no file under src/ contains the name of an installed extension (in any case)', () => {
    const files = filesUnder(SRC).map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8').toLowerCase() }));
    const naming = names.flatMap((name) => files.filter((f) => f.text.includes(name.toLowerCase())).map((f) => `${name}: ${f.path}`));
    expect(naming).toEqual([]);
  });
});
