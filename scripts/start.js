#!/usr/bin/env node
// `npm start` / `npm run cli`: compile when the sources are newer than the build, then run it
// in this process (so signals reach the server directly and shutdown stays graceful). The
// sources are src/, the extensions in extensions/ and those CALENDAR_EXTENSIONS names: the same
// build compiles them all, so an extension never runs stale.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');

/** Every file under `dir`, as paths relative to it with `/` separators. */
function filesUnder(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** The newest of the sources: TypeScript files and the assets the build copies (templates, CSS). */
function newestSource(dir) {
  return Math.max(0, ...filesUnder(dir).map((rel) => fs.statSync(path.join(dir, rel)).mtimeMs));
}

/** A glob of nest-cli.json (`**` any folders, `*` any name part) as a regular expression. */
function globPattern(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}$`);
}

/**
 * The non-TypeScript files the app reads at run time (the pages' templates and stylesheet):
 * copied as nest-cli.json's `compilerOptions.assets` says, since `tsc` alone copies nothing
 * (`npm run build` uses `nest build`, which reads the same list).
 */
function copyAssets() {
  const cli = JSON.parse(fs.readFileSync(path.join(root, 'nest-cli.json'), 'utf8'));
  const sourceRoot = path.join(root, cli.sourceRoot ?? 'src');
  const sources = filesUnder(sourceRoot);
  for (const asset of cli.compilerOptions?.assets ?? []) {
    const pattern = globPattern(asset.include);
    for (const rel of sources.filter((f) => pattern.test(f))) {
      const target = path.join(root, asset.outDir, rel);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(sourceRoot, rel), target);
    }
  }
}

/**
 * The modules of CALENDAR_EXTENSIONS (comma-separated, relative to the working directory), as
 * paths relative to the repository: the build compiles them with src/ (tsconfig's rootDir is the
 * repository, so one outside it cannot be built).
 */
function extensionPaths() {
  return (process.env.CALENDAR_EXTENSIONS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const rel = path.relative(root, path.resolve(p)).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        process.stderr.write(`CALENDAR_EXTENSIONS: ${p} is outside the repository (${root}); put it in extensions/ or below the repository.\n`);
        process.exit(2);
      }
      return rel.replace(/\.ts$/, '');
    });
}

/** The files and folders an extension path stands for: a folder, or a module with or without `.ts`. */
function extensionSources(rel) {
  const base = path.join(root, rel);
  if (fs.existsSync(base) && fs.statSync(base).isDirectory()) return { dir: base, include: `${rel}/**/*.ts` };
  return { file: `${base}.ts`, include: `${rel}.ts` };
}

/** The newest mtime of `file` or of the files under `dir`; 0 when missing. */
function newestOf({ dir, file }) {
  if (dir) return newestSource(dir);
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/** What the last build compiled beyond src/ and extensions/ (its CALENDAR_EXTENSIONS), as the stamp says. */
function stampedPaths() {
  try {
    return JSON.parse(fs.readFileSync(stamp, 'utf8')).extensions ?? [];
  } catch {
    return [];
  }
}

function isBuilt(extra) {
  const folder = path.join(root, 'extensions');
  const sources = Math.max(
    newestSource(path.join(root, 'src')),
    fs.existsSync(folder) ? newestSource(folder) : 0,
    ...extra.map((rel) => newestOf(extensionSources(rel))),
    ...['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  const compiled = stampedPaths();
  return built >= sources && extra.every((rel) => compiled.includes(rel));
}

/**
 * The project the build compiles: tsconfig.build.json, plus the CALENDAR_EXTENSIONS modules
 * outside extensions/ (and those the last build compiled, so that their output stays current).
 */
function buildProject(extra) {
  if (extra.length === 0) return path.join(root, 'tsconfig.build.json');
  const base = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8'));
  const project = path.join(root, 'dist', '.tsconfig.extensions.json');
  const fromDist = (p) => `../${p}`;
  fs.mkdirSync(path.dirname(project), { recursive: true });
  fs.writeFileSync(
    project,
    JSON.stringify(
      { extends: '../tsconfig.build.json', include: [...base.include, ...extra.map((rel) => extensionSources(rel).include)].map(fromDist) },
      null,
      2,
    ),
  );
  return project;
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
  const extra = extensionPaths();
  if (isBuilt(extra)) return;
  withBuildLock(() => {
    if (isBuilt(extra)) return; // another process built while we waited
    process.stderr.write('Building (sources changed since the last build)…\n');
    const compiled = [...new Set([...stampedPaths(), ...extra])].filter((rel) => newestOf(extensionSources(rel)) > 0);
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', buildProject(compiled)], {
      stdio: 'inherit',
      cwd: root,
    });
    copyAssets();
    fs.writeFileSync(stamp, JSON.stringify({ built: new Date().toISOString(), extensions: compiled }));
  });
}

buildIfNeeded();
// `--cli`: the command line (src/cli.ts); `--openapi`: write the OpenAPI document (src/openapi.ts).
const ENTRIES = { '--cli': 'cli.js', '--openapi': 'openapi.js' };
const entry = Object.hasOwn(ENTRIES, process.argv[2]) ? ENTRIES[process.argv.splice(2, 1)[0]] : 'main.js';
require(path.join(root, 'dist', 'src', entry));
