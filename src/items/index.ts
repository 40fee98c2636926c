export * from './statuses';
export * from './list-visibility';
export * from './authorship';
export * from './publication-date';
export * from './item-slug';
export * from './presentation';
