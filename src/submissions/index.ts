export { SUBMISSIONS_FEATURE } from './submissions.feature';
