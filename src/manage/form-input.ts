import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toWpValidationError } from '../common/errors';

/**
 * The status tabs of the editing lists (editing.md §2), in their order: `all` is every status
 * but the trash, as the API lists without `status`.
 */
export const STATUS_TABS = [
  { key: 'all', label: 'All' },
  { key: 'publish', label: 'Published' },
  { key: 'future', label: 'Scheduled' },
  { key: 'draft', label: 'Drafts' },
  { key: 'pending', label: 'Pending' },
  { key: 'private', label: 'Private' },
  { key: 'trash', label: 'Trash' },
] as const;

/** A form's input as the API route's DTO, checked as the global ValidationPipe checks a request (app.setup.ts). */
export function validated<T extends object>(dto: new () => T, input: Record<string, unknown>): T {
  const value = plainToInstance(dto, input);
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: false, stopAtFirstError: true });
  if (errors.length > 0) throw toWpValidationError(errors);
  return value;
}

/** The items of a list answer of the API (JSON text assembled from cached items), by its collection's key. */
export function listed<T = Record<string, unknown>>(bytes: Buffer, collection: string): T[] {
  const body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return (body[collection] as T[] | undefined) ?? [];
}
