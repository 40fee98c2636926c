import type { Feature } from '../common/feature/feature';
import { PagesModule } from './pages.module';

/** The public pages (pages.md): on with CALENDAR_PAGES. */
export const PAGES_FEATURE: Feature = {
  name: 'pages',
  modules: [PagesModule],
  enabled: (config) => config.pages,
  // A crawler or a reader walking many event pages in turn must find them here: an LRU smaller
  // than the set walked in a cycle keeps none of it (at 4% the bench's 500 pages thrashed it).
  caches: { 'pages.rendered': 0.08 },
};
