export * from './error-codes';
export * from './wp-error';
export * from './validation-errors';
export * from './classify-error';
