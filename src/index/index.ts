export { IndexModule } from './index.module';
export { ApiDocExtensions } from './api-doc-extensions';
export type { ApiDocChange } from './api-doc-extensions';
