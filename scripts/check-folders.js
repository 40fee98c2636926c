#!/usr/bin/env node
// Part of `npm run lint`: what ESLint's per-file rules cannot see. Fails (exit 1) on
// - a cycle between the folders of src/ (import/no-cycle looks at files, not folders);
// - SQL outside a repository (`*.repository.ts`) or src/database:
//   `.query()`, `.createQueryBuilder()`, `.getRepository()` or a string that starts a statement.
'use strict';
const path = require('node:path');
const { folderCycles, folderImports, sqlOutsideRepositories } = require('../eslint-rules/folders.cjs');

const SRC = path.join(__dirname, '..', 'src');

const problems = [];

const edges = folderImports(SRC);
for (const group of folderCycles(edges)) {
  const inside = [...edges].filter(([key]) => key.split(' -> ').every((folder) => group.includes(folder)));
  problems.push(
    `src/: the folders ${group.join(', ')} import each other in a cycle:\n` +
      inside.map(([key, files]) => `    ${key}  (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`).join('\n'),
  );
}

const sql = sqlOutsideRepositories(SRC);
for (const [file, found] of sql) {
  const where = found.map(({ line, what }) => `${line} (${what})`).join(', ');
  problems.push(`src/${file}: SQL outside a repository, at lines ${where}; move it into a *.repository.ts of its feature.`);
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('Folders: no cycle between them and no SQL outside repositories.\n');
