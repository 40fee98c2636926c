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

/** Every TypeScript file of src/ but unit specs and migrations, with the top folder it is in ('' at the top). */
function allSources(): { file: string; folder: string; source: ts.SourceFile }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'migrations' ? [] : walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });
  return walk(__dirname).map((path) => {
    const file = relative(__dirname, path);
    const parts = file.split(sep);
    return { file, folder: parts.length > 1 ? parts[0] : '', source: ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest) };
  });
}

/** What an error code looks like (`term_exists`, `rest-event-not-found`): no spaces, a `_` or `-` between words. */
const CODE = /^[a-z][a-z0-9]*([_-][a-z0-9]+)+$/;

/**
 * The error codes a file declares: the code of each `new WpError(…)` written as a string or as a
 * constant of the file, and, in a `*.errors.ts` file, every string shaped like a code.
 */
export function errorCodesOf(source: ts.SourceFile, isErrorsFile: boolean): string[] {
  const constants = new Map<string, string>();
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer)) {
      constants.set(node.name.text, node.initializer.text);
    }
    if (isErrorsFile && ts.isStringLiteralLike(node) && CODE.test(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const thrown = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'WpError' && node.arguments?.length) {
      const [code] = node.arguments;
      if (ts.isStringLiteralLike(code)) found.push(code.text);
      else if (ts.isIdentifier(code) && constants.has(code.text)) found.push(constants.get(code.text)!);
    }
    ts.forEachChild(node, thrown);
  };
  thrown(source);
  return [...new Set(found)];
}

describe('error codes: the foundations declare theirs, a feature its own', () => {
  const files = allSources();
  const codesFile = files.find((f) => f.file === join('common', 'errors', 'error-codes.ts'))!;

  it("each code of common/errors is answered by the foundations or by several features (one feature's code is declared in its folder)", () => {
    const declared = [...codesFile.source.statements]
      .filter(ts.isVariableStatement)
      .flatMap((statement) => statement.declarationList.declarations)
      .filter((d) => ts.isIdentifier(d.name) && d.initializer !== undefined && ts.isStringLiteralLike(d.initializer))
      .map((d) => (d.name as ts.Identifier).text);
    expect(declared.length).toBeGreaterThan(5);
    const usersOf = (name: string): Set<string> => {
      const folders = new Set<string>();
      for (const { file, folder, source } of files) {
        if (file === codesFile.file) continue;
        const visit = (node: ts.Node): void => {
          if (ts.isIdentifier(node) && node.text === name) folders.add(folder);
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
      return folders;
    };
    const single = declared.flatMap((name) => {
      const folders = usersOf(name);
      const foundations = LOWER.some((f) => folders.has(f));
      return !foundations && folders.size < 2 ? [`${name} is answered only by ${[...folders].join(', ') || 'nothing'}`] : [];
    });
    expect(single).toEqual([]);
  });

  it("no feature's own error code is written in common/ or database/", () => {
    const featureCodes = new Map<string, string>();
    for (const { file, folder, source } of files) {
      if (LOWER.includes(folder) || folder === '') continue;
      for (const code of errorCodesOf(source, file.endsWith('.errors.ts'))) featureCodes.set(code, file);
    }
    expect([...featureCodes.keys()]).toEqual(
      expect.arrayContaining(['term_exists', 'rest_sync_token_expired', 'geo-extension-disabled', 'rest-event-not-found']),
    );
    const written = files
      .filter(({ folder }) => folder === 'common' || folder === 'database')
      .flatMap(({ file, source }) =>
        stringsOf(source)
          .filter((text) => featureCodes.has(text))
          .map((code) => `${file}: "${code}" (declared by ${featureCodes.get(code)})`),
      );
    expect(written).toEqual([]);
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
