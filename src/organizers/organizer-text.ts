import type { TextFields } from '../common/text/text-fields';
import { LINKED_ITEM_TEXT } from '../linked-items';

/** The text fields of an organizer write, their rules and the lengths of those in varchar columns (OrganizerEntity). */
export const ORGANIZER_TEXT: TextFields = {
  rules: { ...LINKED_ITEM_TEXT.rules, organizer: 'plain', email: 'plain' },
  varchars: { ...LINKED_ITEM_TEXT.varchars, email: 255 },
};
