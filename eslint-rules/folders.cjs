// The layers of src/, read from the folders themselves: every folder of src/ that is not a
// foundation is a feature, so a feature added later is inside the lint zones without editing
// a list. eslint.config.mjs builds its zones here; scripts/check-folders.js checks what a
// per-file rule cannot see (cycles between folders, SQL outside repositories).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: eslint.config.mjs and a ts-jest unit spec both load it */
const { readdirSync } = require('node:fs');

/** The foundations, lowest first: each imports only those before it, and no feature. */
const FOUNDATIONS = ['config', 'common', 'database'];

/** The feature folders of `srcDir`: its folders that are not foundations, sorted. */
function featureFolders(srcDir) {
  return readdirSync(srcDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !FOUNDATIONS.includes(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** The import/no-restricted-paths zones of `srcDir` (paths relative to the directory ESLint runs in). */
function boundaryZones(srcDir, prefix = './src') {
  const features = featureFolders(srcDir);
  return [
    // A foundation imports no feature and no foundation above it.
    ...FOUNDATIONS.flatMap((layer, i) =>
      [...features, ...FOUNDATIONS.slice(i + 1)].map((above) => ({
        target: `${prefix}/${layer}`,
        from: `${prefix}/${above}`,
        message: `src/${layer} is a foundation: it imports only ${FOUNDATIONS.slice(0, i).join(', ') || 'packages'} below it, not src/${above}.`,
      })),
    ),
    // A feature reaches another only through that feature's index.ts.
    ...features.flatMap((feature) =>
      features
        .filter((other) => other !== feature)
        .map((other) => ({
          target: `${prefix}/${feature}`,
          from: `${prefix}/${other}`,
          except: ['./index.ts'],
          message: `import the ${other} feature through src/${other}/index.ts.`,
        })),
    ),
  ];
}

module.exports = { FOUNDATIONS, featureFolders, boundaryZones };

/** Every TypeScript file under `dir` but unit specs, type declarations and migrations. */
function sourceFiles(dir) {
  const { join } = require('node:path');
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The imports between the folders of `srcDir`: `from -> to` mapped to the files that import
 * (files at the top of src/, the composition root, belong to no folder).
 */
function folderImports(srcDir) {
  const ts = require('typescript');
  const { readFileSync, statSync } = require('node:fs');
  const { dirname, relative, resolve, sep } = require('node:path');
  const isFolder = (name) => {
    try {
      return statSync(resolve(srcDir, name)).isDirectory();
    } catch {
      return false;
    }
  };
  const edges = new Map();
  for (const file of sourceFiles(srcDir)) {
    const from = relative(srcDir, file).split(sep)[0];
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(srcDir, resolve(dirname(file), fileName)).split(sep);
      const to = target[0];
      // `../cli` from a folder names src/cli.ts (an entry point), not the cli folder.
      if (to === from || to === '..' || !isFolder(to) || (target.length === 1 && isFolder(to) && require('node:fs').existsSync(resolve(srcDir, `${to}.ts`))))
        continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push(relative(srcDir, file));
    }
  }
  return edges;
}

/** The cycles between folders: each a sorted list of the folders of one strongly connected group. */
function folderCycles(edges) {
  const next = new Map();
  for (const key of edges.keys()) {
    const [from, to] = key.split(' -> ');
    if (!next.has(from)) next.set(from, []);
    next.get(from).push(to);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** Where SQL may be written: repositories and src/database (migrations included). */
function mayHoldSql(relativePath) {
  return /\.repository\.ts$/.test(relativePath) || relativePath.split(/[\\/]/)[0] === 'database';
}

/** Calls that run or build SQL, or reach a table without a repository. */
const SQL_CALLS = new Set(['query', 'createQueryBuilder', 'getRepository']);
/** A string or template that starts as an SQL statement. */
const SQL_TEXT = /^\s*(SELECT|INSERT|UPDATE|DELETE|REPLACE|WITH)\s/;

/** The lines of a file that run or write SQL: `[{ line, what }]`. */
function sqlIn(fileName, text) {
  const ts = require('typescript');
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found = [];
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SQL_CALLS.has(node.expression.name.text)) {
      found.push({ line: lineOf(node), what: `.${node.expression.name.text}()` });
    } else if ((ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) && SQL_TEXT.test(node.text)) {
      found.push({ line: lineOf(node), what: 'SQL text' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The files of `srcDir` holding SQL where they may not: relative path mapped to what was found. */
function sqlOutsideRepositories(srcDir) {
  const { readFileSync } = require('node:fs');
  const { relative } = require('node:path');
  const out = new Map();
  for (const file of sourceFiles(srcDir)) {
    const rel = relative(srcDir, file);
    if (mayHoldSql(rel)) continue;
    const found = sqlIn(file, readFileSync(file, 'utf8'));
    if (found.length > 0) out.set(rel.split('\\').join('/'), found);
  }
  return out;
}

Object.assign(module.exports, { folderImports, folderCycles, mayHoldSql, sqlIn, sqlOutsideRepositories });
