import type { Feature } from '../../src/common/feature/feature';
import { CAPACITY_FEATURE } from '../../extensions/capacity/capacity.feature';

/**
 * The extensions the tests know by name (extensions/): features a team could have written. No
 * file under src/ may name them (test/e2e/extensions/core-names-no-extension.e2e-spec.ts).
 */
export const TEST_EXTENSIONS: readonly Feature[] = [CAPACITY_FEATURE];
