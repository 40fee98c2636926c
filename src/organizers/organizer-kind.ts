import { type LinkedKind, linkedItemTokens } from '../linked-items';
import { CreateOrganizerDto } from './dto/write-organizer.dto';
import { presentOrganizer } from './organizer.presenter';
import { ORGANIZER_TEXT } from './organizer-text';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_ERRORS } from './organizers.errors';

/** What makes an organizer an organizer; the rules shared with venues are in src/linked-items. */
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

/**
 * How the organizer reads, writes and deletes are injected:
 * `@Inject(ORGANIZER_TOKENS.reads) organizers: LinkedItemReads<OrganizerEntity>`. The events feature reads
 * `existingIds` (the `organizer` list filter), `linkableIds` and `embed` (event responses), and
 * writes through `prepareCreate` and `createPrepared` (organizers nested in event writes).
 */
export const ORGANIZER_TOKENS = linkedItemTokens('organizer');
