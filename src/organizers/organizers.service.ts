import { Inject, Injectable } from '@nestjs/common';
import { LinkedItems, LinkedKind, linkedItemTokens } from '../items';
import { CreateOrganizerDto } from './dto/write-organizer.dto';
import { presentOrganizer } from './organizer.presenter';
import { ORGANIZER_TEXT } from './organizer-text';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_ERRORS } from './organizers.errors';

/** What makes an organizer an organizer; the rules shared with venues are in LinkedItems. */
export const ORGANIZER_KIND: LinkedKind<OrganizerEntity> = {
  type: 'organizer',
  collection: 'organizers',
  text: ORGANIZER_TEXT,
  createDto: CreateOrganizerDto,
  fields: { phone: 'phone', website: 'website', email: 'email' },
  defaults: { phone: '', website: '', email: '' },
  errors: ORGANIZER_ERRORS,
  present: presentOrganizer,
};

/** How the organizer rooms (reads, writes, deletes and their front door) are injected. */
export const ORGANIZER_ROOMS = linkedItemTokens('organizer');

/**
 * Organizers (spec endpoints.md §5). The events module calls `prepareCreate` and `createPrepared` (organizers nested
 * in event writes), `existingIds` and `embed`.
 */
@Injectable()
export class OrganizersService {
  /** The rules organizers share with venues, applied to organizers: the front door of the organizer rooms (ORGANIZER_ROOMS). */
  constructor(@Inject(ORGANIZER_ROOMS.items) readonly items: LinkedItems<OrganizerEntity>) {}
}
