import type { Feature } from '../common/feature/feature';
import { onOffSetting } from '../config/settings';
import { EMBED_ORIGINS } from './embed-options';
import { CACHEABLE_PAGE_ROUTES } from './page-routes';
import { PagesModule } from './pages.module';
import { registerPages } from './pages-http';

/** CALENDAR_PAGES: the public pages' switch. */
export const PAGES_SWITCH = onOffSetting('CALENDAR_PAGES', 'on', 'the public pages at the permalinks (pages.md)');

/**
 * The public pages (pages.md): on with CALENDAR_PAGES. Their template engine and trailing-slash
 * redirect are set up app-wide; their answers are cached like the API's (per data version), and
 * tagged and compressed on the way out. CALENDAR_EMBED_ORIGINS names the sites that may frame
 * the embeds.
 */
export const PAGES_FEATURE: Feature = {
  name: 'pages',
  modules: [PagesModule],
  switch: PAGES_SWITCH,
  settings: [EMBED_ORIGINS],
  setup: registerPages,
  cacheableRoutes: CACHEABLE_PAGE_ROUTES,
  // A crawler or a reader walking many event pages in turn must find them here: an LRU smaller
  // than the set walked in a cycle keeps none of it (at 4% the bench's 500 pages thrashed it).
  caches: { 'pages.rendered': 0.08 },
};
