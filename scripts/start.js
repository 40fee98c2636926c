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

function isBuilt() {
  const sources = Math.max(
    newestSource(path.join(root, 'src')),
    ...['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  return built >= sources;
}

/**
 * One build at a time: processes started together (test files spawning the CLI in parallel)
 * would otherwise compile over each other while one of them already loads dist/.
 * The lock file holds the builder's pid; a lock whose process is gone is taken over.
 */
function withBuildLock(work) {
  const lock = path.join(root, 'dist', '.build-lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      if (!holder || !alive(holder)) fs.rmSync(lock, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function buildIfNeeded() {
  if (isBuilt()) return;
  withBuildLock(() => {
    if (isBuilt()) return; // another process built while we waited
    process.stderr.write('Building (sources changed since the last build)…\n');
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
      stdio: 'inherit',
      cwd: root,
    });
    fs.writeFileSync(stamp, new Date().toISOString());
  });
}

buildIfNeeded();
// `--cli`: the command line (src/cli.ts); `--openapi`: write the OpenAPI document (src/openapi.ts).
const ENTRIES = { '--cli': 'cli.js', '--openapi': 'openapi.js' };
const entry = Object.hasOwn(ENTRIES, process.argv[2]) ? ENTRIES[process.argv.splice(2, 1)[0]] : 'main.js';
require(path.join(root, 'dist', 'src', entry));
