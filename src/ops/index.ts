export { OpsModule } from './ops.module';
export type { Readiness } from './readiness.service';
