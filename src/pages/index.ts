export { PagesModule } from './pages.module';
export { registerPages } from './pages-http';
export { CACHEABLE_PAGE_ROUTES } from './page-routes';
export { EVENT_PAGE_HOOKS, ORGANIZER_PAGE_HOOKS, VENUE_PAGE_HOOKS } from './page-hooks';
export type { PageHook } from './page-hooks';
export { PageAssets } from './page-assets';
