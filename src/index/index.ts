export { IndexModule } from './index.module';
export { addParameters, addProperties, ApiDocExtensions, requestBodySchemas } from './api-doc-extensions';
export type { ApiDocChange } from './api-doc-extensions';
