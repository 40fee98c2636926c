import { Injectable } from '@nestjs/common';
import { ItemExtensions } from '../items';
import type { VenueEntity } from './venue.entity';

/**
 * Where optional modules plug into venues: register an ItemExtension (write fields, stored data,
 * output keys and JSON-LD members) in onModuleInit. The geo extension is one.
 */
@Injectable()
export class VenueExtensions extends ItemExtensions<VenueEntity> {}
