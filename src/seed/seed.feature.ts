import type { Feature } from '../common/feature/feature';
import { seed } from './seed.command';

/** Demo and benchmark data (`npm run cli -- seed`). */
export const SEED_FEATURE: Feature = { name: 'seed', commands: { seed } };
