#!/usr/bin/env node
// `npm run migration:generate -- Name [--feature NAME]`: writes the PAIR of migrations for an
// entity change, one per dialect, with the same name and timestamp: once against a scratch SQLite
// file and once against a scratch database on the local MariaDB (MIGRATION_MYSQL_URL, default
// root@127.0.0.1:3306). They go to the migrations folder of the feature whose tables changed (an
// extension's own, under extensions/ or a CALENDAR_EXTENSIONS path), with its index.ts.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [name, ...options] = process.argv.slice(2);
if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
  process.stderr.write('Usage: npm run migration:generate -- PascalCaseName [--feature NAME]\n');
  process.exit(2);
}
const root = path.join(__dirname, '..');
const server = process.env.MIGRATION_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const scratchDb = `calendar_migration_${process.pid}`;
const timestamp = String(Date.now());
const cli = (env) =>
  execFileSync(process.execPath, [path.join(root, 'scripts', 'start.js'), '--cli', 'migration:generate', name, ...options], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, MIGRATION_TIMESTAMP: timestamp, LOG_LEVEL: 'silent' },
  });

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-migration-'));
  cli({ DATABASE_URL: `sqlite:${path.join(dir, 'scratch.sqlite')}` });
  fs.rmSync(dir, { recursive: true, force: true });

  const mysql = require('mysql2/promise');
  const conn = await mysql.createConnection({ uri: server });
  await conn.query(`CREATE DATABASE \`${scratchDb}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  try {
    cli({ DATABASE_URL: `${server.replace(/\/$/, '')}/${scratchDb}` });
  } finally {
    await conn.query(`DROP DATABASE IF EXISTS \`${scratchDb}\``);
    await conn.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
