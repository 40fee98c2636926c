#!/usr/bin/env node
// `npm start` / `npm run cli`: compile when the sources are newer than the build, then run it
// in this process (so signals reach the server directly and shutdown stays graceful).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const sources = Math.max(
    newestSource(path.join(root, 'src')),
    ...['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (built >= sources) return;
  process.stderr.write('Building (sources changed since the last build)…\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: root,
  });
  fs.writeFileSync(stamp, new Date().toISOString());
}

buildIfNeeded();
const cli = process.argv[2] === '--cli';
if (cli) process.argv.splice(2, 1);
require(path.join(root, 'dist', 'src', cli ? 'cli.js' : 'main.js'));
