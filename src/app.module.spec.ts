import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every TypeScript file under `dir` (unit specs left out), as paths relative to src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('the module graph (docs/architecture.md "Layers")', () => {
  it("has only the foundations' modules global (config, database and the features' declarations): every other module is imported where it is injected", () => {
    const global = sources(__dirname)
      .filter((file) => /@Global\(\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(__dirname, file))
      .sort();
    expect(global).toEqual(['config/config.module.ts', 'database/database.module.ts', 'database/feature-declarations.module.ts']);
  });
});
