import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from './config/app-config';
import { ChangeCounterEntity, ChangeEntity } from './database/change-log';
import { dataSourceOptions } from './database/data-source-options';
import { WriteLockEntity } from './database/write-lock.entity';
// The entity files themselves, not the features' index files: ormconfig.ts and the query tests
// load the schema without the features' modules and controllers.
import { EventEntity } from './events/entities/event.entity';
import { VenueGeoEntity } from './geo/venue-geo.entity';
import { ImportedRecordEntity } from './imports/imported-record.entity';
import { MediaEntity } from './media/media.entity';
import { EventOrganizerEntity } from './organizers/event-organizer.entity';
import { OrganizerEntity } from './organizers/organizer.entity';
import { PostEntity } from './posts/post.entity';
// moved to the recurrence feature when features.ts lands
import { OccurrenceEntity } from './recurrence/entities/occurrence.entity';
import { SeriesEntity } from './recurrence/entities/series.entity';
import { EventTermEntity } from './taxonomies/entities/event-term.entity';
import { WebhookDeliveryEntity, WebhookEntity } from './sync/webhooks/webhook.entity';
import { TermEntity } from './taxonomies/entities/term.entity';
import { ApplicationPasswordEntity } from './users/application-password.entity';
import { UserEntity } from './users/user.entity';
import { VenueEntity } from './venues/venue.entity';

/**
 * Every entity of the schema; migrations are generated from this list. It is composed here, at
 * the root, because database/ imports no feature: the features' tables reach the connection
 * through dataSourceOptions' `entities`.
 */
export const ENTITIES = [
  UserEntity,
  ApplicationPasswordEntity,
  PostEntity,
  TermEntity,
  EventTermEntity,
  MediaEntity,
  VenueEntity,
  OrganizerEntity,
  EventEntity,
  EventOrganizerEntity,
  // The geo extension's table exists whether the extension is on or off (one schema for all).
  VenueGeoEntity,
  ChangeEntity,
  ChangeCounterEntity,
  WriteLockEntity,
  // The importers' mapping of source records to local ones (src/imports).
  ImportedRecordEntity,
  // Webhook subscriptions and their outbox (src/sync/webhooks).
  WebhookEntity,
  WebhookDeliveryEntity,
  // moved to the recurrence feature when features.ts lands
  SeriesEntity,
  OccurrenceEntity,
];

/** The connection options of this schema: the server, the CLI and ormconfig.ts all open it so. */
export function schemaDataSourceOptions(config: Pick<AppConfig, 'database'>): DataSourceOptions {
  return dataSourceOptions(config, ENTITIES);
}
