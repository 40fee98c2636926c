#!/usr/bin/env node
// `npm run lint:openapi`: builds the OpenAPI document exactly as GET {api_root}/doc serves it (the
// app booted on an in-memory SQLite database, see src/openapi.ts) and lints it with Redocly CLI
// under redocly.yaml. The exit code is Redocly's: not 0 when the document has errors.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-openapi-'));
// The document with every optional extension off (a fresh install), then with geo and recurrence
// on, with the example extension of extensions/capacity (ignored when it is not installed): what
// the extensions add to /doc must hold to the same rules.
const VARIANTS = [
  ['extensions off', { CALENDAR_GEO: 'off', CALENDAR_RECURRENCE: 'off', CALENDAR_CAPACITY: 'off' }],
  ['geo, recurrence and capacity on', { CALENDAR_GEO: 'on', CALENDAR_RECURRENCE: 'on', CALENDAR_CAPACITY: 'on' }],
];
try {
  for (const [name, vars] of VARIANTS) {
    const file = path.join(dir, `openapi-${name.replace(/\W+/g, '-')}.json`);
    process.stdout.write(`OpenAPI document with ${name}\n`);
    execFileSync(process.execPath, [path.join(__dirname, 'start.js'), '--openapi', file], { stdio: 'inherit', cwd: root, env: { ...process.env, ...vars } });
    execFileSync(process.execPath, [require.resolve('@redocly/cli/bin/cli.js'), 'lint', file, '--config', path.join(root, 'redocly.yaml')], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  }
} catch (err) {
  process.exitCode = typeof err.status === 'number' && err.status !== 0 ? err.status : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
