import { seed } from '../cli/index';
import type { Feature } from '../common/feature/feature';

/** Demo and benchmark data (`npm run cli -- seed`). */
export const SEED_FEATURE: Feature = { name: 'seed', commands: { seed } };
