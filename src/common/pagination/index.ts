export * from './list-page';
export * from './list-headers.interceptor';
export * from './page-query.dto';
