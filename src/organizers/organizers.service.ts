import { Injectable } from '@nestjs/common';
import { LinkedItems, LinkedKind } from '../items';
import { ReadModel } from '../common/cache/read-model';
import { UnitOfWork } from '../database/unit-of-work';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media';
import { PostsService } from '../posts';
import { UsersService } from '../users';
import { CreateOrganizerDto } from './dto/write-organizer.dto';
import { presentOrganizer } from './organizer.presenter';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_ERRORS } from './organizers.errors';
import { OrganizerExtensions } from './organizer-extensions';
import { OrganizersRepository } from './organizers.repository';

/** What makes an organizer an organizer; the rules shared with venues are in LinkedItems. */
export const ORGANIZER_KIND: LinkedKind<OrganizerEntity> = {
  type: 'organizer',
  collection: 'organizers',
  createDto: CreateOrganizerDto,
  fields: { phone: 'phone', website: 'website', email: 'email' },
  defaults: { phone: '', website: '', email: '' },
  errors: ORGANIZER_ERRORS,
  present: presentOrganizer,
};

/**
 * Organizers (spec endpoints.md §5). The events module calls `prepareCreate` and `createPrepared` (organizers nested
 * in event writes), `existingIds` and `embed`.
 */
@Injectable()
export class OrganizersService {
  /** The rules organizers share with venues, applied to organizers. */
  readonly items: LinkedItems<OrganizerEntity>;

  constructor(
    repo: OrganizersRepository,
    posts: PostsService,
    media: MediaService,
    users: UsersService,
    config: AppConfig,
    extensions: OrganizerExtensions,
    readModel: ReadModel,
    uow: UnitOfWork,
  ) {
    this.items = new LinkedItems(ORGANIZER_KIND, { repo, posts, media, users, config, extensions, readModel, uow });
  }
}
