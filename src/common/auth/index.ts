export * from './roles';
export * from './capabilities';
