#!/usr/bin/env node
// Part of `npm run lint`. Reads the comments of the code and the tests and checks two things:
// - every `name.md` a comment cites exists in docs/spec/ (the contract) or docs/ (or is the
//   README), so a citation cannot point at nothing after a file is renamed or removed;
// - every `docs/name.md` README.md and docs/*.md link to exists;
// - no comment tells history ("issue 12", "issue 29, item 4"): git and the changelog keep it,
//   a comment says why the code is so. Reported as warnings unless run with --strict (or
//   CHECK_DOCS_STRICT=1), which makes them fail like a broken citation.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const strict = process.argv.includes('--strict') || process.env.CHECK_DOCS_STRICT === '1';

/** Folders and files whose comments are read. */
const CODE_ROOTS = ['src', 'test', 'scripts', 'eslint-rules', 'eslint.config.mjs', 'jest.config.js'];
const CODE_FILE = /\.(ts|js|cjs|mjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'fixtures']);

/** Where a cited `name.md` may live. */
const DOC_DIRS = ['docs/spec', 'docs'];
const CITATION = /\b([A-Za-z0-9][\w-]*\.md)\b/g;
const HISTORY = /\bissues? #?\d+/i;

function walk(entry, out) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return out;
  if (fs.statSync(full).isFile()) {
    if (CODE_FILE.test(entry)) out.push(entry);
    return out;
  }
  for (const child of fs.readdirSync(full, { withFileTypes: true })) {
    if (child.isDirectory() && SKIP_DIRS.has(child.name)) continue;
    walk(path.join(entry, child.name), out);
  }
  return out;
}

/** The comments of a file with the line each starts on; strings and template literals are skipped. */
function comments(text) {
  const found = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      found.push({ line, text: text.slice(i, stop) });
      i = stop - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      const body = text.slice(i, stop);
      found.push({ line, text: body });
      line += body.split('\n').length - 1;
      i = stop - 1;
    } else if (c === "'" || c === '"' || c === '`') {
      // Skip the string; a comment marker inside it is text, not a comment.
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') j++;
        else if (text[j] === '\n') {
          line++;
          if (c !== '`') break;
        }
        j++;
      }
      i = j;
    }
  }
  return found;
}

function lineOf(comment, offset) {
  return comment.line + comment.text.slice(0, offset).split('\n').length - 1;
}

const docs = new Set(['README.md']);
for (const dir of DOC_DIRS) {
  const full = path.join(root, dir);
  if (fs.existsSync(full)) for (const name of fs.readdirSync(full)) if (name.endsWith('.md')) docs.add(name);
}

const broken = [];
const history = [];
for (const file of CODE_ROOTS.flatMap((entry) => walk(entry, []))) {
  if (file === path.join('scripts', 'check-docs.js')) continue;
  for (const comment of comments(fs.readFileSync(path.join(root, file), 'utf8'))) {
    for (const match of comment.text.matchAll(CITATION)) {
      if (!docs.has(match[1])) broken.push(`${file}:${lineOf(comment, match.index)}: cites ${match[1]}, which is in neither docs/spec/ nor docs/`);
    }
    const told = HISTORY.exec(comment.text);
    if (told) history.push(`${file}:${lineOf(comment, told.index)}: "${told[0]}": say why the code is so, not when it came`);
  }
}

// The docs' own links to one another: `docs/name.md` anywhere in README.md or docs/*.md, and
// relative Markdown links `](name.md)` inside docs/.
const DOC_LINK = /\bdocs\/([\w-]+\.md)\b/g;
const RELATIVE_LINK = /\]\(([\w-]+\.md)(?:#[^)]*)?\)/g;
const inDocs = (name) => fs.existsSync(path.join(root, 'docs', name));
const docFiles = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => path.join('docs', n)),
];
for (const file of docFiles) {
  fs.readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const match of text.matchAll(DOC_LINK)) if (!inDocs(match[1])) broken.push(`${file}:${i + 1}: links docs/${match[1]}, which does not exist`);
      if (file === 'README.md') return;
      for (const match of text.matchAll(RELATIVE_LINK)) if (!inDocs(match[1])) broken.push(`${file}:${i + 1}: links ${match[1]}, which is not in docs/`);
    });
}

for (const message of broken) console.error(`error  ${message}`);
for (const message of history) console.error(`${strict ? 'error' : 'warning'}  ${message}`);
if (history.length > 0 && !strict) console.error(`${history.length} comment(s) tell history (warnings; --strict or CHECK_DOCS_STRICT=1 makes them fail)`);
if (broken.length > 0 || (strict && history.length > 0)) process.exit(1);
