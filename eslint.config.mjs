// Lint rules that keep the layers apart and catch what the compiler does not (issue 12, item 3).
// `npm run lint` runs ESLint (type-aware) and Prettier's check; .ci/run runs it.
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import transactions from './eslint-rules/transactions.cjs';

/** Feature folders: each is a module of its own and is entered only through its index.ts. */
const FEATURES = [
  'events',
  'venues',
  'organizers',
  'items',
  'taxonomies',
  'media',
  'posts',
  'users',
  'geo',
  'index',
  'seed',
  'cli',
  'pages',
  'imports',
  'sync',
  'ops',
  'recurrence',
];
/** Layers below the features: they import no feature. */
const FOUNDATIONS = ['common', 'database', 'config'];

const zones = [
  // common/, database/ and config/ import no feature (schema history under migrations/ is exempt:
  // a migration may reuse the pure functions of the version it was written for).
  ...FOUNDATIONS.flatMap((layer) =>
    FEATURES.map((feature) => ({
      target: `./src/${layer}`,
      from: `./src/${feature}`,
      message: `src/${layer} is a foundation: it must not import the ${feature} feature.`,
    })),
  ),
  // A feature reaches another only through that feature's index.ts.
  ...FEATURES.flatMap((feature) =>
    FEATURES.filter((other) => other !== feature).map((other) => ({
      target: `./src/${feature}`,
      from: `./src/${other}`,
      except: ['./index.ts'],
      message: `import the ${other} feature through src/${other}/index.ts.`,
    })),
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'scripts/**', 'eslint-rules/fixtures/**', '*.js', '*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { import: importPlugin, tx: transactions },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones }],
      // A write's queries go through its Tx, and only src/database makes one (eslint-rules/transactions.cjs).
      'tx/no-outer-connection-in-write': 'error',
      'tx/no-tx-assertion': 'error',
    },
  },
  {
    // UnitOfWork.run and bulkTransaction are where a transaction's manager becomes a Tx.
    files: ['src/database/**/*.ts'],
    rules: { 'tx/no-tx-assertion': 'off' },
  },
  {
    // Migrations are schema history: they keep the helpers of the version they were written for.
    files: ['src/database/migrations/**/*.ts'],
    rules: { 'import/no-restricted-paths': 'off' },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import/no-restricted-paths': 'off',
    },
  },
  prettier,
);
