import { linkedItemErrors } from '../linked-items';

/** Venue error codes of spec errors.md (statuses and messages: linkedItemErrors). */
export const VENUE_ERRORS = linkedItemErrors('venue', {
  notAccessible: 'venue-not-accessible',
  inTrash: 'venue-is-in-trash',
  pageNotFound: 'venue-archive-page-not-found',
  couldNotCreate: 'could-not-create-venue',
  couldNotUpdate: 'could-not-update-venue',
  couldNotDelete: 'could-not-delete-venue',
});
