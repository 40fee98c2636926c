import { invalidParam, PARAM_MESSAGES, WpError } from '../common/errors';

/** Event error codes of spec errors.md. */
export const eventNotFound = (id: number) => new WpError('rest-event-not-found', `No event exists with id ${id}.`, 404);
export const invalidEventId = () => new WpError('rest-invalid-event-id', 'The given id does not identify an event.', 400);
export const eventNoLongerAvailable = () => new WpError('event-no-longer-available', 'This event has been removed.', 403);
export const eventNotAccessible = () => new WpError('event-not-accessible', 'You cannot view this event.', 403);
export const eventInTrash = () => new WpError('event-is-in-trash', 'The event is already in the trash.', 410);
export const eventPageNotFound = () => new WpError('event-archive-page-not-found', 'This page of events does not exist.', 404);
export const ticketsNotActive = () => new WpError('event-tickets-not-active', 'Ticket filtering is not available.', 400);
/** geo's list parameters while no extension owns them (geo off): the events list answers as TEC does without its geo module. */
export const geoDisabled = (params: string[]) => new WpError('geo-extension-disabled', 'Geographic filters are not enabled on this server.', 400, { params });
/** by-slug routes: an unknown slug is a parameter error (spec endpoints.md §4.2 step 1). */
export const unknownEventSlug = () => invalidParam('slug', PARAM_MESSAGES.unknownId('event'));
