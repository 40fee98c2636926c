export { MANAGE_FEATURE } from './manage.feature';
export { registerManage } from './manage-http';
