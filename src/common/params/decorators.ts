import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, ValidateBy, ValidationOptions } from 'class-validator';
import { DateTime } from 'luxon';
import { parseDateInput } from '../datetime/parse-date';
import { MISSING_CONTEXT, PARAM_MESSAGES } from '../errors';
import { columnOverflow, TEXT_COLUMN_BYTES, type TextFields, varcharLimit } from '../text/text-fields';
import { INVALID, isNameList, toIdList, toInt, toList, toLooseBool, toNameList, toStrictBool } from './coerce';

/**
 * Declarative parameter decorators for DTOs: each one parses the lenient input forms of the
 * spec (README §3–§5) and validates the result with the spec's message, so a DTO reads as a
 * list of its parameters.
 */

/** A validation rule with one message. */
export function Check(name: string, test: (value: unknown) => boolean, message: string, opts?: ValidationOptions) {
  return ValidateBy({ name, validator: { validate: (value) => test(value), defaultMessage: () => message } }, opts);
}

/** Absent → rest_missing_callback_param (null counts as absent, spec README §2). */
export function Required() {
  return IsDefined({ context: MISSING_CONTEXT });
}

/** Optional parameter: absent or null skips every other check. */
export const Optional = () => IsOptional();

/** Integer ≥ min; larger than `clamp` is clamped (per_page). */
export function IntParam({ min = 1, clamp }: { min?: number; clamp?: number } = {}) {
  return applyDecorators(
    Transform(({ value }) => {
      if (value === undefined || value === null) return value;
      const n = toInt(value);
      if (n === INVALID) return INVALID;
      return clamp !== undefined && n > clamp ? clamp : n;
    }),
    Check('intParam', (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min, min >= 1 ? PARAM_MESSAGES.positiveInt : PARAM_MESSAGES.integer),
  );
}

/** Typed boolean: true/"true"/"1"/1, false/"false"/"0"/0/"". */
export function StrictBool() {
  return applyDecorators(
    Transform(({ value }) => (value === undefined || value === null ? value : toStrictBool(value))),
    Check('strictBool', (v) => typeof v === 'boolean', PARAM_MESSAGES.boolean),
  );
}

/** Loosely typed flag: never an error. */
export function LooseBool() {
  return Transform(({ value }) => (value === undefined || value === null ? value : toLooseBool(value)));
}

/** A non-empty string (after trimming). */
export function NonEmptyString() {
  return Check('nonEmptyString', (v) => typeof v === 'string' && v.trim() !== '', PARAM_MESSAGES.text);
}

/** Any string, possibly empty. */
export function AnyString() {
  return Check('anyString', (v) => typeof v === 'string', PARAM_MESSAGES.string);
}

/** A list of positive integer ids in any array form; `nonEmpty` rejects an empty list (`""`). */
export function IdListParam({ nonEmpty = false }: { nonEmpty?: boolean } = {}) {
  return applyDecorators(
    Transform(({ value }) => (value === undefined || value === null ? value : toIdList(value))),
    Check('idList', (v) => Array.isArray(v) && (!nonEmpty || v.length > 0), PARAM_MESSAGES.idList),
  );
}

/** A list of non-empty strings in any array form. */
export function StringListParam({ nonEmpty = false, message = PARAM_MESSAGES.text }: { nonEmpty?: boolean; message?: string } = {}) {
  return applyDecorators(
    Transform(({ value }) => (value === undefined || value === null ? value : toList(value))),
    Check('stringList', (v) => Array.isArray(v) && (!nonEmpty || v.length > 0), message),
  );
}

/** Category or tag names and ids (spec endpoints.md §4.5): array items kept whole, a comma string kept whole beside its parts. */
export function NameListParam({ message = PARAM_MESSAGES.text }: { message?: string } = {}) {
  return applyDecorators(
    Transform(({ value }) => (value === undefined || value === null ? value : toNameList(value))),
    Check('nameList', isNameList, message),
  );
}

/** A date-time in the grammar of spec README §6.2 (parsing does not depend on the zone; the service parses again in the write's zone). */
export function DateParam() {
  return Check('dateParam', (v) => parseDateInput(v, 'UTC', DateTime.utc()) !== null, PARAM_MESSAGES.date);
}

/** `website`-style fields: empty, or an absolute URL with a scheme and a host (`foo` fails). */
/** Schemes a website may use: a link that runs script (`javascript:`, `data:`) is no website. */
const WEB_SCHEMES = new Set(['http:', 'https:', 'ftp:', 'ftps:']);

export function isUrlOrEmpty(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value.trim() === '') return true;
  try {
    const url = new URL(value.trim());
    return url.host !== '' && WEB_SCHEMES.has(url.protocol);
  } catch {
    return false;
  }
}

export function UrlOrEmpty() {
  return Check('urlOrEmpty', isUrlOrEmpty, PARAM_MESSAGES.url);
}

/**
 * The value fits the column behind the field (text-fields.ts: varchar characters, or the bytes
 * of a text column), the same limit on both engines; the write path checks the cleaned value again.
 */
export function FitsColumn(fields: TextFields, field: string) {
  const limit = varcharLimit(fields, field);
  const message = limit === undefined ? `Must be at most ${TEXT_COLUMN_BYTES} bytes long.` : `Must be at most ${limit} characters long.`;
  return Check('fitsColumn', (value) => typeof value !== 'string' || columnOverflow(fields, field, value) === null, message);
}
