import { EventOrganizerEntity } from '../events/entities/event-organizer.entity';
import { EventEntity } from '../events/entities/event.entity';
import { VenueGeoEntity } from '../geo/venue-geo.entity';
import { MediaEntity } from '../media/media.entity';
import { OrganizerEntity } from '../organizers/organizer.entity';
import { PostEntity } from '../posts/post.entity';
import { VenueEntity } from '../venues/venue.entity';
import { EventTermEntity } from '../taxonomies/entities/event-term.entity';
import { TermEntity } from '../taxonomies/entities/term.entity';
import { ApplicationPasswordEntity } from '../users/application-password.entity';
import { UserEntity } from '../users/user.entity';
import { ChangeEntity } from './change-log';
import { WriteLockEntity } from './write-lock.entity';

/** Every entity of the schema; migrations are generated from this list. */
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
  WriteLockEntity,
];
