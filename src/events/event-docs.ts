import { code, DocKind, ErrorStatus, IcalDocs, ItemPath, RouteText } from '../common/http/route-docs';

const LINKED_POST = code('invalid-linked-post-id', 'a `venue` or `organizer` given as `{"id": N}` where N is not a venue or organizer');

/** Events in the routes' documentation: the error codes only events answer (errors.md). */
export const EVENT_DOCS: DocKind = {
  noun: 'event',
  article: 'an',
  linked: true,
  invalidId: code('rest-invalid-event-id', 'the id exists but is not an event'),
  errors(role, by) {
    const lines: Partial<Record<ErrorStatus, string[]>> = {};
    if (role === 'list') {
      lines[400] = [
        code('event-tickets-not-active', '`ticketed=true`: ticket filtering is not available'),
        code('geo-extension-disabled', '`geoloc`, `geoloc_lat` or `geoloc_lng` while geographic filters are off on this server'),
      ];
    }
    if (role === 'create' || role === 'update') lines[400] = [LINKED_POST];
    if (role === 'update') lines[403] = [code('could-not-update-event', 'the event could not be saved')];
    if (role === 'read') lines[403] = [code('event-no-longer-available', 'the event is in the trash')];
    if (by === 'id') lines[404] = [code('rest-event-not-found', 'no event has this id')];
    return lines;
  },
};

/** An iCalendar answer of events (ical.md, Export): the feed of a list query (`by` absent) or one event. */
export const EventIcalDocs = (text: RouteText, by?: ItemPath) => IcalDocs(EVENT_DOCS, text, by);
