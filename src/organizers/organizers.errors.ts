import { linkedItemErrors } from '../linked-items';

/** Organizer error codes of spec errors.md (statuses and messages: linkedItemErrors). */
export const ORGANIZER_ERRORS = linkedItemErrors('organizer', {
  notAccessible: 'organizer-not-accessible',
  inTrash: 'organizer-is-in-trash',
  pageNotFound: 'organizer-archive-page-not-found',
  couldNotCreate: 'could-not-create-organizer',
  couldNotUpdate: 'could-not-update-organizer',
  couldNotDelete: 'could-not-delete-organizer',
});
