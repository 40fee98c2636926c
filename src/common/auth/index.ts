export * from './roles';
export * from './capabilities';
export * from './challenge';
