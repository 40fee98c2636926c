import type { TextFields } from '../common/text/text-fields';

/** The text fields of an event write and how each is cleaned (common/text/text-fields.ts); all in text columns. */
export const EVENT_TEXT: TextFields = {
  rules: { title: 'plain', description: 'html', excerpt: 'html', cost: 'plain', website: 'plain' },
};
