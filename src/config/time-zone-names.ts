import { FixedOffsetZone, IANAZone, Zone } from 'luxon';

/**
 * Time zones as the spec names them (README §7): an IANA name (`America/New_York`) or a fixed
 * offset written `UTC`, `UTC+2`, `UTC-3:30`, `UTC+5:45` (`UTC+02:00` is accepted too).
 */

const FIXED_OFFSET = /^UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/;
const MAX_FIXED_OFFSET_MINUTES = 14 * 60;

/** IANA names start with a letter; this keeps ECMAScript offset zones such as `+02:00` out. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** Parses the `UTC±H[:MM]` form; undefined when `name` is not written that way. */
function parseFixedOffset(name: string): Zone | null | undefined {
  const m = FIXED_OFFSET.exec(name);
  if (!m) return undefined;
  const [, sign, hours, minutes] = m;
  if (sign === undefined) return FixedOffsetZone.utcInstance;
  const mins = minutes === undefined ? 0 : Number(minutes);
  if (mins > 59) return null;
  const total = Number(hours) * 60 + mins;
  if (total > MAX_FIXED_OFFSET_MINUTES) return null;
  return FixedOffsetZone.instance(sign === '-' ? -total : total);
}

/** Zones already looked up: checking an IANA name builds an Intl formatter, which is slow. */
const ZONES = new Map<string, Zone | null>();
const MAX_REMEMBERED_ZONES = 2000;

/** The luxon zone for a spec time-zone name, or null when the name is not a valid zone. */
export function resolveZone(name: string): Zone | null {
  if (typeof name !== 'string') return null;
  const known = ZONES.get(name);
  if (known !== undefined) return known;
  const zone = lookUpZone(name);
  // Bounded: zone names come from clients too (invalid ones are remembered as null).
  if (ZONES.size < MAX_REMEMBERED_ZONES) ZONES.set(name, zone);
  return zone;
}

function lookUpZone(name: string): Zone | null {
  const fixed = parseFixedOffset(name);
  if (fixed !== undefined) return fixed;
  if (!IANA_NAME.test(name) || !IANAZone.isValidZone(name)) return null;
  return IANAZone.create(name);
}

export function isValidTimezone(name: string): boolean {
  return resolveZone(name) !== null;
}

/** True for the `UTC±N` spellings (including bare `UTC`), which are fixed offsets, not IANA zones. */
export function isFixedOffsetName(name: string): boolean {
  return parseFixedOffset(name) != null;
}
