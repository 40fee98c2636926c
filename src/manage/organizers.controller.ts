import { Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CreateOrganizerDto, ORGANIZER_TOKENS, OrganizerHooks, UpdateOrganizerDto } from '../organizers';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageGuard } from './manage-session';
import { recordPagesController, type RecordKind } from './records';

/** The organizer pages (editing.md §2); the fields of endpoints.md §5.2. */
export const ORGANIZER_PAGES: RecordKind = {
  type: 'organizer',
  collection: 'organizers',
  noun: 'Organizer',
  plural: 'Organizers',
  nameLabel: 'Organizer name',
  fields: [
    { param: 'phone', label: 'Phone', type: 'tel' },
    { param: 'website', label: 'Website', type: 'url', help: 'An address starting with https:// or http://, or nothing.' },
    { param: 'email', label: 'E-mail', type: 'text' },
  ],
  listColumns: [
    { param: 'email', label: 'E-mail' },
    { param: 'phone', label: 'Phone' },
  ],
  createDto: CreateOrganizerDto,
  updateDto: UpdateOrganizerDto,
  tokens: ORGANIZER_TOKENS,
  hooks: OrganizerHooks,
};

@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/organizers')
export class ManageOrganizersController extends recordPagesController(ORGANIZER_PAGES) {}
