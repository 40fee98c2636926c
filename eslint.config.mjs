// Lint rules that keep the layers apart and catch what the compiler does not.
// `npm run lint` runs ESLint (type-aware) and Prettier's check; .ci/run runs it.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import transactions from './eslint-rules/transactions.cjs';
import folders from './eslint-rules/folders.cjs';

const { boundaryZones } = folders;

/** Said where process.env is read outside src/config. */
const ENV_MESSAGE = 'Only src/config reads the environment: take AppConfig, or call loadConfigFromEnv() in an entry point.';

/** The imports of `env` from Node's process module (the other way to read process.env). */
const ENV_IMPORTS = ['process', 'node:process'].map((name) => ({ name, importNames: ['env'], message: ENV_MESSAGE }));

/** What a migration may import besides its own folder: any package but typeorm and Node's built-ins is refused. */
const MIGRATION_PACKAGES = `^(?![./]|node:|typeorm(/|$)|(${builtinModules.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(/|$))`;
const MIGRATION_MESSAGE =
  'A migration is frozen history: it imports only typeorm, node built-ins and src/database/migrations/** (copy a live helper into migrations/shared/frozen-*.ts).';

/** Said where an extension imports a core file: its whole API is src/extend. */
const EXTENSION_MESSAGE =
  'An extension imports from src/extend only (the published extension API); add what it needs there rather than reach into a core folder.';

/** The layers read from the folders of src/ (eslint-rules/folders.cjs): a new folder is a feature without a list to edit. */
const zones = boundaryZones(join(import.meta.dirname, 'src'));

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
    // Outside src/database every transaction is a UnitOfWork.run: a raw one
    // would miss the write isolation, the cluster read wait and the retry on conflicts. Tests
    // may open one to hold locks on purpose (e.g. changes-mirror).
    files: ['src/**/*.ts'],
    ignores: ['src/database/**'],
    rules: { 'tx/no-raw-transaction': 'error' },
  },
  {
    // UnitOfWork.run and bulkTransaction are where a transaction's manager becomes a Tx.
    files: ['src/database/**/*.ts'],
    rules: { 'tx/no-tx-assertion': 'off' },
  },
  {
    // The environment is read in one place, src/config, and validated there;
    // everything else is given AppConfig (entry points: loadConfigFromEnv()).
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: ENV_MESSAGE }],
      'no-restricted-imports': ['error', { paths: ENV_IMPORTS }],
    },
  },
  {
    // Migrations are frozen history: what one does must not change when the
    // live code does, so it imports only typeorm, Node's built-ins and other migration files,
    // and carries frozen copies of the helpers it needs (migrations/shared/frozen-*.ts).
    files: ['src/database/migrations/**/*.ts'],
    ignores: ['src/database/migrations/**/*.spec.ts'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        { zones: [{ target: './src/database/migrations', from: '.', except: ['./src/database/migrations', './node_modules'], message: MIGRATION_MESSAGE }] },
      ],
      'no-restricted-imports': ['error', { paths: ENV_IMPORTS, patterns: [{ regex: MIGRATION_PACKAGES, message: MIGRATION_MESSAGE }] }],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import/no-restricted-paths': 'off',
    },
  },
  {
    // An extension depends on the published API alone, so that the core's folders may change
    // under it: from src/ it imports src/extend and nothing else.
    files: ['extensions/**/*.ts', 'test/support/notes/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+src(/(?!extend(/index)?$).*)?$', message: EXTENSION_MESSAGE }] }],
    },
  },
  prettier,
);
