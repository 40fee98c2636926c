export { MANAGE_FEATURE } from './manage.feature';
export { registerManage } from './manage-http';
export { EVENT_FORM_HOOKS } from './event-form-hooks';
export type { EventFormContext, EventFormField, EventFormHook, EventFormQuestion, EventFormSection } from './event-form-hooks';
export { REVIEW_HOOKS } from './review-hooks';
export type { ReviewHook, ReviewSubmitter } from './review-hooks';
