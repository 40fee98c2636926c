import type { Feature } from '../../src/extend';
import { CAPACITY_FEATURE } from './capacity/capacity.feature';

/**
 * The test-only extension modules, one folder each under
 * test/extensions: features a team could have written, loaded only by test apps. No file under
 * src/ may name them (test/e2e/extensions/core-names-no-extension.e2e-spec.ts).
 */
export const TEST_EXTENSIONS: readonly Feature[] = [CAPACITY_FEATURE];
