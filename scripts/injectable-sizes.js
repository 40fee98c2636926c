#!/usr/bin/env node
// Lists the injectables (classes decorated @Injectable or @Controller) under src/ whose file is
// longer than 350 lines or whose constructor takes more than 8 dependencies: past those sizes a
// class holds more than one concern and is hard to read and to fake in a unit spec.
// Reports only by default; `--fail` makes it exit 1 when any injectable is over a limit.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const MAX_LINES = 350;
const MAX_DEPENDENCIES = 8;
const root = path.join(__dirname, '..');

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) yield full;
  }
}

const INJECTABLE = new Set(['Injectable', 'Controller']);

function decoratorName(decorator) {
  const e = decorator.expression;
  return ts.isCallExpression(e) ? e.expression.getText() : e.getText();
}

/** Every class in a file that Nest instantiates, with the parameter count of its constructor. */
function injectables(file) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found = [];
  const visit = (node) => {
    if (ts.isClassLike(node)) {
      const decorators = ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
      if (decorators.some((d) => INJECTABLE.has(decoratorName(d)))) {
        const ctor = node.members.find(ts.isConstructorDeclaration);
        found.push({ name: node.name ? node.name.text : '(anonymous)', dependencies: ctor ? ctor.parameters.length : 0 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), classes: found };
}

const over = [];
for (const file of sourceFiles(path.join(root, 'src'))) {
  const { lines, classes } = injectables(file);
  for (const c of classes) {
    const reasons = [];
    if (lines > MAX_LINES) reasons.push(`${lines} lines`);
    if (c.dependencies > MAX_DEPENDENCIES) reasons.push(`${c.dependencies} dependencies`);
    if (reasons.length) over.push(`${path.relative(root, file)} ${c.name}: ${reasons.join(', ')}`);
  }
}

if (!over.length) {
  process.stdout.write(`Every injectable is within ${MAX_LINES} lines and ${MAX_DEPENDENCIES} constructor dependencies.\n`);
} else {
  process.stdout.write(`Injectables over ${MAX_LINES} lines or ${MAX_DEPENDENCIES} constructor dependencies:\n${over.map((o) => `  ${o}\n`).join('')}`);
  if (process.argv.includes('--fail')) process.exit(1);
}
