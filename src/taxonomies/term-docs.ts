import { queryListDoc } from '../common/http/route-docs';

/**
 * A list of categories or tags in the query string: ids, slugs or names, one or many. A comma
 * string is split unless it is as a whole the name of a term; an array item is never split.
 */
export const termListQueryDoc = (description: string) =>
  queryListDoc(
    { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] },
    { type: 'string', description: 'One id, slug or name, or several separated by commas (unless the whole string is the name of a term)' },
    description,
  );
