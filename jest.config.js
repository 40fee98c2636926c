// Three projects:
// - unit: specs beside the code (src/**/*.spec.ts), no database;
// - e2e: test/e2e/<feature>/ driving the real HTTP stack on a real database, in-process;
// - e2e-slow: the e2e files listed in SLOW below, which start other processes (the CLI through
//   scripts/start.js, which first builds dist/ when it is stale; Chromium; tsc), several app
//   instances on one database, or a cluster. Each takes from seconds to minutes.
// `npm test` runs unit and e2e (a few minutes on two cores); `npm run test:slow` runs e2e-slow;
// .ci/run runs all three, on every engine it tests (README "Tests").
// ts-jest only transpiles (type checking is `npm run typecheck`): tsconfig.json sets
// isolatedModules, so each file is transpiled alone without a language service (decorator
// metadata is still emitted from the syntax, which Nest's injection needs).
// (@swc/jest would be faster still, but its platform binaries cannot be locked for `npm ci`
// from the registry this project installs from.)
const fs = require('node:fs');
const path = require('node:path');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] };

/** test/e2e/<feature>/<name>.e2e-spec.ts files of the e2e-slow project, and why each is there. */
const SLOW = [
  // Chromium
  'http/cors-browser',
  'manage/manage-browser',
  'manage/manage-review-browser',
  'manage/manage-series-browser',
  'pages/pages-browser',
  'pages/embed-browser',
  'submissions/submissions-browser',
  // CLI processes (scripts/start.js) or other child processes
  'cli/cli',
  'database/migration-check',
  'extensions/extension-cli',
  'http/openapi-client',
  'imports/import-ics',
  'imports/import-tec',
  'recurrence/recurrence-import',
  'recurrence/recurrence-import-files',
  'seed/seed',
  'seed/seed-indexes',
  'sources/sources-runs',
  'sync/webhooks-crash',
  'sync/webhooks-post-thread',
  'users/last-administrator',
  // several instances on one database, racing writers, or a cluster (TEST_CLUSTER_NODES)
  'database/cluster-race',
  'database/concurrent-writers',
  'database/instances',
  'database/migration-lock',
  'events/scheduled-publish-instances',
  'pages/embed-instances',
  'manage/manage-cluster',
  'manage/manage-sign-in-instances',
  'recurrence/recurrence-cluster',
  'recurrence/recurrence-instances',
  'submissions/submissions-instances',
  'sync/webhooks-instances',
];
const slowPaths = SLOW.map((name) => path.join(__dirname, 'test', 'e2e', `${name}.e2e-spec.ts`));
// A renamed file would leave a stale name here and slip into the e2e project (and npm test) unnoticed.
for (const file of slowPaths) if (!fs.existsSync(file)) throw new Error(`jest.config.js SLOW names ${file}, which does not exist`);

const e2e = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform,
  // The in-process apps hash the test users' passwords at a lower scrypt cost (the file says why).
  setupFilesAfterEnv: ['<rootDir>/test/support/cheap-password-hashes.ts'],
};

module.exports = {
  maxWorkers: 2,
  // e2e hooks create databases and apps: on a busy two-core machine (or a Galera node) 5 s is
  // too short. (A global option: Jest 29 ignores it inside a project.)
  testTimeout: 30_000,
  projects: [
    { displayName: 'unit', testEnvironment: 'node', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'], transform },
    {
      displayName: 'e2e',
      ...e2e,
      testMatch: ['**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...SLOW.map((name) => `/test/e2e/${name}\\.e2e-spec\\.ts$`)],
    },
    { displayName: 'e2e-slow', ...e2e, testMatch: slowPaths },
  ],
};
