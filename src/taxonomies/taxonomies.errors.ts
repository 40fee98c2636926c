import { WpError } from '../common/errors';

/** Term error codes of spec errors.md. */
export const TERM_EXISTS = 'term_exists';
export const DUPLICATE_TERM_SLUG = 'duplicate_term_slug';

/** A term of this name exists at this level of the taxonomy: its id is in `data.term_id`. */
export const termExists = (termId: number) => new WpError(TERM_EXISTS, 'A term with this name already exists.', 400, { term_id: termId });

/** An explicit slug another term of the taxonomy has. */
export const duplicateTermSlug = () => new WpError(DUPLICATE_TERM_SLUG, 'This slug is already used by another term.', 400);

/** The parameter message of a list of terms naming one that does not exist (errors.md, suggested wording). */
export const UNKNOWN_TERM_MESSAGE = 'Contains a category or tag that does not exist.';
