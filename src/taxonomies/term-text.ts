import type { TextFields } from '../common/text/text-fields';

/** The text fields of a category or tag write, their rules and the length of the name's varchar column (TermEntity). */
export const TERM_TEXT: TextFields = {
  rules: { name: 'plain', description: 'html' },
  varchars: { name: 200 },
};
