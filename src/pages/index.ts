export { PagesModule } from './pages.module';
export { registerPages } from './pages-http';
export { CACHEABLE_PAGE_ROUTES } from './page-routes';
