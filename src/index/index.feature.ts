import type { Feature } from '../common/feature/feature';
import { IndexModule } from './index.module';

/** The REST root, the namespace index and the OpenAPI document. */
export const INDEX_FEATURE: Feature = { name: 'index', modules: [IndexModule] };
