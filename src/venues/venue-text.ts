import type { TextFields } from '../common/text/text-fields';
import { LINKED_ITEM_TEXT } from '../linked-items';

/** The text fields of a venue write, their rules and the lengths of those in varchar columns (VenueEntity). */
export const VENUE_TEXT: TextFields = {
  rules: {
    ...LINKED_ITEM_TEXT.rules,
    venue: 'plain',
    address: 'plain',
    city: 'plain',
    country: 'plain',
    province: 'plain',
    state: 'plain',
    zip: 'plain',
    stateprovince: 'plain',
  },
  varchars: { ...LINKED_ITEM_TEXT.varchars, address: 255, city: 255, country: 255, province: 255, state: 255, zip: 64, stateprovince: 255 },
};
