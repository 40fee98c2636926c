export { MANAGE_FEATURE } from './manage.feature';
export { registerManage } from './manage-http';
export { EVENT_FORM_HOOKS } from './event-form-hooks';
export type { EventFormContext, EventFormField, EventFormHook, EventFormQuestion, EventFormSection } from './event-form-hooks';
export { REVIEW_HOOKS } from './review-hooks';
export type { ReviewHook, ReviewSubmitter } from './review-hooks';
// What the public submission form (src/submissions) shares with the editing pages: the form hooks'
// fields and the pickers, the form's values, its error summary, and the checks and headers of a
// page that takes a form.
export { EventFormHooks } from './event-form-hooks';
export { EventFormPickers } from './event-form-pickers';
export type { PickerItem, PickerPage } from './event-form-pickers';
export { endBeforeStart, newEventValues, postedValues } from './event-form-values';
export type { EventFormValues } from './event-form-values';
export { formErrors, messageOf } from './form-errors';
export type { FieldError } from './form-errors';
export { manageSecurityHeaders, SESSION_COOKIE } from './manage-http';
export { assertSameOrigin, FORM_TOKEN_FIELD, safeNext } from './manage-session';
export { ManageRefusal } from './manage-refusals';
export { extFieldViews } from './event-form-views';
