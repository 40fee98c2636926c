// Two projects: unit tests sit beside the code (src/**/*.spec.ts) and need no database;
// e2e tests (test/e2e) drive the real HTTP stack on a real database.
// ts-jest only transpiles (type checking is `npm run typecheck`), which keeps start-up fast.
// (@swc/jest would be faster still, but its platform binaries cannot be locked for `npm ci`
// from the registry this project installs from.)
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] };

module.exports = {
  maxWorkers: 2,
  // e2e hooks create databases and apps: on a busy two-core machine (or a Galera node) 5 s is
  // too short. (A global option: Jest 29 ignores it inside a project.)
  testTimeout: 30_000,
  projects: [
    { displayName: 'unit', testEnvironment: 'node', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'], transform },
    { displayName: 'e2e', testEnvironment: 'node', roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts'], transform },
  ],
};
