import type { Feature } from '../common/feature/feature';
import { MediaEntity } from './media.entity';
import { MediaModule } from './media.module';

/** Images of items (resources.md, `image`). */
export const MEDIA_FEATURE: Feature = { name: 'media', modules: [MediaModule], entities: [MediaEntity] };
