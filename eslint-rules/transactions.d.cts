import type { ESLint } from 'eslint';

/** Types for the unit test (src/database/tx-lint-rules.spec.ts); the rules are plain CommonJS for eslint.config.mjs. */
declare const transactions: ESLint.Plugin & { rules: NonNullable<ESLint.Plugin['rules']> };
export = transactions;
