import type { TextFields } from '../common/text/text-fields';

/** The text fields venues and organizers share (LinkedItemFieldsDto): their rules, and the phone's varchar length in both kinds' entities. */
export const LINKED_ITEM_TEXT: TextFields = {
  rules: { description: 'html', phone: 'plain', website: 'plain' },
  varchars: { phone: 255 },
};
