import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';
import { getMetadataArgsStorage } from 'typeorm';
import { ChangeKinds } from './database/change-kinds';
import { FEATURES } from './features';

// The foundations name no feature (docs/architecture.md, "How a feature registers"): a file
// under src/common or src/database (its frozen migrations and unit specs aside) imports only the
// foundations, and holds no registered feature's table name or change kind as a string. The
// names come from the registered features, so a feature added later is covered without editing
// this test.

/** The folders that may be imported from common/ and database/. */
const LOWER = ['common', 'database', 'config'];

/** Every TypeScript file under `dir` but unit specs and migrations. */
function lowerSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : lowerSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports (static, dynamic, re-exports, `import('…')` types). */
function importsOf(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The texts of a file's string literals and template parts. */
function stringsOf(source: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const SQL = /\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|INTO)\b/;

/**
 * What a string says of the names: a name as the whole string, or inside SQL a table name as
 * a word or a kind quoted as a value (`t.type = 'event'`). Prose that uses the same words is
 * not a reference to a table.
 */
export function namedIn(text: string, names: { tables: readonly string[]; kinds: readonly string[] }): string[] {
  const found = [...names.tables, ...names.kinds].filter((name) => text === name);
  if (SQL.test(text)) {
    const words = new Set(text.split(/[^A-Za-z0-9_]+/));
    found.push(...names.tables.filter((t) => words.has(t)), ...names.kinds.filter((k) => text.includes(`'${k}'`)));
  }
  return [...new Set(found)];
}

/** The tables of the registered features (from their entities) and their change kinds. */
function registeredNames(): { tables: string[]; kinds: string[] } {
  const entities = new Set(FEATURES.flatMap((f) => f.entities ?? []));
  const tables = getMetadataArgsStorage()
    .tables.filter((t) => entities.has(t.target as never))
    .map((t) => t.name!)
    .filter((name) => name !== undefined);
  return { tables, kinds: ChangeKinds.of(FEATURES).types() };
}

describe('the foundations (common/, database/) name no feature', () => {
  const files = ['common', 'database'].flatMap((layer) => lowerSources(join(__dirname, layer)));
  const parsed = files.map((file) => ({
    file: relative(__dirname, file),
    source: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest),
  }));

  it('finds the registered names to look for', () => {
    const names = registeredNames();
    expect(names.tables).toEqual(expect.arrayContaining(['events', 'venues', 'terms', 'webhooks']));
    expect(names.kinds).toEqual(expect.arrayContaining(['event', 'venue', 'category']));
    expect(parsed.length).toBeGreaterThan(50);
  });

  it('imports nothing above common/, database/ and config/', () => {
    const outside = parsed.flatMap(({ file, source }) =>
      importsOf(source)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => ({ file, spec, folder: relative(__dirname, resolve(dirname(join(__dirname, file)), spec)).split(sep)[0] }))
        .filter(({ folder }) => !LOWER.includes(folder))
        .map(({ file: f, spec }) => `${f} imports ${spec}`),
    );
    expect(outside).toEqual([]);
  });

  it("holds no registered feature's table name or change kind in a string", () => {
    const names = registeredNames();
    const named = parsed.flatMap(({ file, source }) =>
      stringsOf(source).flatMap((text) => namedIn(text, names).map((name) => `${file}: "${name}" in ${JSON.stringify(text.slice(0, 80))}`)),
    );
    expect(named).toEqual([]);
  });
});

describe('namedIn (what the check counts as naming)', () => {
  const names = { tables: ['events', 'terms'], kinds: ['event', 'tag'] };

  it.each([
    ['events', ['events']],
    ['tag', ['tag']],
    ['SELECT id FROM events WHERE venue_id IN', ['events']],
    ["SELECT t.id FROM x t WHERE t.taxonomy = 'tag'", ['tag']],
    ['UPDATE terms SET count = count + 1', ['terms']],
  ])('%j names %j', (text, expected) => expect(namedIn(text, names)).toEqual(expected));

  it.each(['No event has this id.', 'the events of the page', 'SELECT id FROM change_log', 'events.listed'])('%j names nothing', (text) =>
    expect(namedIn(text, names)).toEqual([]),
  );
});
