export * from './metrics';
export * from './metrics.module';
export * from './request-metrics';
