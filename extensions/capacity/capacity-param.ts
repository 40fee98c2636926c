import { INVALID, toInt } from '../../src/extend';

/** The largest capacity the module keeps. */
export const MAX_CAPACITY = 100_000;

export const CAPACITY_MESSAGE = `Must be a whole number from 0 to ${MAX_CAPACITY}, or empty to clear it.`;
export const MIN_CAPACITY_MESSAGE = `Must be a whole number from 0 to ${MAX_CAPACITY}.`;

/** A capacity as a parameter gives it (a JSON number or its digits); INVALID for anything else or out of range. */
export function readCapacity(value: unknown): number | typeof INVALID {
  const n = toInt(value);
  return n !== INVALID && n >= 0 && n <= MAX_CAPACITY ? n : INVALID;
}

/**
 * The write parameter `capacity`: undefined when the write does not send it (left as it is; a
 * JSON `null` is not sent, as for every core parameter), null to clear it (`""`), else the
 * number; INVALID for a bad value.
 */
export function readCapacityInput(input: Record<string, unknown>): number | null | undefined | typeof INVALID {
  const value = input.capacity;
  if (value === undefined || value === null) return undefined;
  if (value === '') return null;
  return readCapacity(value);
}
