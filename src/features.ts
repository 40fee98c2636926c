import type { Feature } from './common/feature/feature';
import { EVENTS_FEATURE } from './events/events.feature';
import { GEO_FEATURE } from './geo/geo.feature';
import { IMPORTS_FEATURE } from './imports/imports.feature';
import { INDEX_FEATURE } from './index/index.feature';
import { MANAGE_FEATURE } from './manage/manage.feature';
import { MEDIA_FEATURE } from './media/media.feature';
import { OPS_FEATURE } from './ops/ops.feature';
import { ORGANIZERS_FEATURE } from './organizers/organizers.feature';
import { PAGES_FEATURE } from './pages/pages.feature';
import { POSTS_FEATURE } from './posts/posts.feature';
import { RECURRENCE_FEATURE } from './recurrence/recurrence.feature';
import { SEED_FEATURE } from './seed/seed.feature';
import { SOURCES_FEATURE } from './sources/sources.feature';
import { SYNC_FEATURE } from './sync/sync.feature';
import { TAXONOMIES_FEATURE } from './taxonomies/taxonomies.feature';
import { USERS_FEATURE } from './users/users.feature';
import { VENUES_FEATURE } from './venues/venues.feature';

/**
 * The composition root's list of installed features: each describes itself
 * in its own folder (Feature), and only this list names them all. The app loads the modules of
 * those enabled (AppModule.forRoot), the schema takes every feature's entities and migrations
 * (schema.ts), and the foundations get what the features declare (change kinds, caches)
 * through FeatureDeclarationsModule. A test app may pass a list of its own (with a feature of its own).
 * The order is the modules' order in the app, and the change kinds' (sync.md lists them so:
 * event, venue, organizer, category, tag).
 */
export const FEATURES: readonly Feature[] = [
  OPS_FEATURE,
  USERS_FEATURE,
  POSTS_FEATURE,
  MEDIA_FEATURE,
  INDEX_FEATURE,
  EVENTS_FEATURE,
  VENUES_FEATURE,
  ORGANIZERS_FEATURE,
  TAXONOMIES_FEATURE,
  SYNC_FEATURE,
  IMPORTS_FEATURE,
  SOURCES_FEATURE,
  SEED_FEATURE,
  GEO_FEATURE,
  RECURRENCE_FEATURE,
  PAGES_FEATURE,
  MANAGE_FEATURE,
];
