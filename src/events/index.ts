export { EventsModule } from './events.module';
export { EventReader } from './event-reader';
export type { EditingListOptions } from './event-reader';
export type { EventListOrder } from './events.filters';
export { EventDeleter } from './event-deleter';
export { EventCalendarService } from './event-calendar.service';
export { ScheduledPublisher, countsAsPublished } from './scheduled-publisher';
export { EventsRepository } from './events.repository';
export { SearchDocumentsThread } from './search-documents-thread';
export { searchTexts } from './search-grams';
export { parseCost, writtenNumbers } from './cost';
export type { EventSpan } from './event-list.repository';
export { EventEntity } from './entities/event.entity';
export { applyTiming } from './event-timing';
export type { EventTiming } from './event-timing';
export { EventDto, EventListDto } from './dto/event-response.dto';
export { ListEventsQueryDto } from './dto/list-events.query.dto';
export { EventListExtensions } from './event-list-extensions';
export type { EventListExtension } from './event-list-extensions';
export type { EventQueryExtension } from './events.filters';
export { EventWriter } from './event-writer';
export { EXTENSION_ORIGIN, FORM_ORIGIN, ROUTE_ORIGIN, SERIES_ORIGIN } from './event-write-origin';
export type { EventWriteOrigin } from './event-write-origin';
export { EventAccess } from './event-access';
export { validatedEventInput } from './event-writes';
export { EventExtensions, EventWrites } from './event-extensions';
export type {
  EventCheckContext,
  EventDeleteContext,
  EventExtension,
  EventExtras,
  EventFormContext,
  EventFormField,
  EventFormQuestion,
  EventFormSection,
  EventWriteContext,
  IcalPlan,
  IcalProperty,
  IcalShape,
  IcalTimes,
} from './event-extensions';
// The links of the request being answered (compat.md: a client never leaves the path it came by):
// an extension writes each API link it adds as the core does, `currentLinks(config.baseUrl).href(path)`.
export { currentLinks } from '../common/http/api-links';
export type { ApiLinks } from '../common/http/api-links';
export { CreateEventDto, UpdateEventDto } from './dto/write-event.dto';
export { EVENT_DOCS } from './event-docs';
export { storedCost } from './event.presenter';
export { EVENT_TEXT } from './event-text';
