export { RestRootModule } from './rest-root.module';
export { addParameters, addProperties, API_DOC_HOOKS, requestBodySchemas } from './api-doc-hooks';
export type { ApiDocHook } from './api-doc-hooks';
