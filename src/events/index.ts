export { EventsModule } from './events.module';
export { EventsService } from './events.service';
export { EventListExtensions } from './event-list-extensions';
export type { EventListExtension } from './event-list-extensions';
export type { EventQueryExtension } from './events.filters';
