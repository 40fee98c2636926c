export * from './list-page';
export * from './list-replies';
export * from './page-query.dto';
export * from './list-query.dto';
export * from './list-pipeline';
export * from './list-hooks';
