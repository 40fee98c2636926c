import type { Feature } from '../common/feature/feature';
import { RestRootModule } from './rest-root.module';

/** The REST root, the namespace index and the OpenAPI document. */
export const REST_ROOT_FEATURE: Feature = { name: 'rest-root', modules: [RestRootModule] };
