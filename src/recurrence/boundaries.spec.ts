import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The recurrence module is an extension (extending.md §2): it uses the
// foundations (common/, database/, config/), packages, and other features only through their
// public index.ts; and no core file names it. The composition root's list of installed
// features (src/features.ts) is the one place allowed to.

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
  it('imports the foundations, its own files, packages and other features through their index.ts only', () => {
    const allowed = /^(recurrence\/|(common|database|config)\/|[a-z-]+$)/;
    const outside = tsFiles(__dirname)
      .filter((f) => !f.endsWith('.spec.ts'))
      .flatMap((f) =>
        imports(f)
          .filter((i) => i.startsWith('.') && !allowed.test(relative(SRC, join(dirname(f), i))))
          .map((i) => `${relative(SRC, f)}: ${i}`),
      );
    expect(outside).toEqual([]);
  });

  it('is imported by no core file', () => {
    const core = tsFiles(SRC).filter((f) => !f.startsWith(__dirname) && relative(SRC, f) !== 'features.ts');
    const naming = core.filter((f) => imports(f).some((i) => /(^|\/)recurrence(\/|$)/.test(i)));
    expect(naming.map((f) => relative(SRC, f))).toEqual([]);
  });
});
