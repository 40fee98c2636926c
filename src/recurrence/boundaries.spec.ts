import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The recurrence module is an extension (extending.md §2, issue 29 item 3): it uses only
// common/ and packages, and no core file names it; the app module, where optional modules are
// registered from configuration (STYLE.md §10), is the one place allowed to.

const SRC = join(__dirname, '..');
const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]);
}

describe('recurrence module boundaries', () => {
  it('imports only common/, its own files and packages', () => {
    const outside = tsFiles(__dirname)
      .filter((f) => !f.endsWith('.spec.ts'))
      .flatMap((f) =>
        imports(f)
          .filter((i) => i.startsWith('.') && !i.startsWith('./') && !i.startsWith('../common/'))
          .map((i) => `${relative(SRC, f)}: ${i}`),
      );
    expect(outside).toEqual([]);
  });

  it('is imported by no core file', () => {
    const core = tsFiles(SRC).filter((f) => !f.startsWith(__dirname) && relative(SRC, f) !== 'app.module.ts');
    const naming = core.filter((f) => imports(f).some((i) => /(^|\/)recurrence(\/|$)/.test(i)));
    expect(naming.map((f) => relative(SRC, f))).toEqual([]);
  });
});
