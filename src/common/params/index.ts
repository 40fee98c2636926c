export * from './coerce';
export * from './decorators';
