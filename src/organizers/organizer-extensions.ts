import { Injectable } from '@nestjs/common';
import { ItemExtensions } from '../items';
import type { OrganizerEntity } from './organizer.entity';

/** Where optional modules plug into organizers (the same extension point as VenueExtensions). */
@Injectable()
export class OrganizerExtensions extends ItemExtensions<OrganizerEntity> {}
