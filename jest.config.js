// Two projects: unit tests sit beside the code (src/**/*.spec.ts) and need no database;
// e2e tests (test/e2e) drive the real HTTP stack on a real database, one file at a time.
const fs = require('node:fs');
const swcrc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
const transform = { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] };

module.exports = {
  maxWorkers: 2,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform,
    },
  ],
};
