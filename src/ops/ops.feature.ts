import type { Feature } from '../common/feature/feature';
import { OpsModule } from './ops.module';

/** Health, readiness and metrics (sync.md "Operations"). */
export const OPS_FEATURE: Feature = { name: 'ops', modules: (config) => [OpsModule.forRoot(config)] };
