import type { Feature } from '../common/feature/feature';
import { PostEntity } from './post.entity';
import { PostsModule } from './posts.module';

/** The id space and slugs every item (event, venue, organizer) shares. */
export const POSTS_FEATURE: Feature = { name: 'posts', modules: [PostsModule], entities: [PostEntity] };
