import { DateTime, Zone } from 'luxon';

import { isFixedOffsetName, isValidTimezone, resolveZone } from '../../config/time-zone-names';

// The names are read by config (a setting names a zone) and here alike, so their rules live there.
export { isFixedOffsetName, isValidTimezone, resolveZone };

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Offsets remembered per zone and UTC day or hour (offsetAt): about 120 bytes each (key and map entry), so at most about 2.4 MB. */
const OFFSETS = new Map<string, number>();
const MAX_REMEMBERED_OFFSETS = 20_000;

/**
 * `zone.offset(ts)` in minutes, remembered per zone and UTC day, or per UTC hour on the days
 * when the offset changes. Luxon asks Intl for an IANA zone's offset on every call (a
 * formatToParts, several microseconds), every presented event needs a few, and the seed a few
 * per event it makes. A day (or hour) whose first and last millisecond have the same offset has
 * that offset throughout, because no zone changes its offset twice within a day (tzdb's changes
 * are days apart at the least); an hour with a change in it is not remembered, and asked every
 * time. By day, a year of one zone is 365 entries, so the seed's three years of events in a
 * handful of zones stay remembered.
 */
export function offsetAt(zone: Zone, ts: number): number {
  if (zone.isUniversal) return zone.offset(ts);
  const day = Math.floor(ts / DAY_MS);
  const dayKey = `${zone.name}|d${day}`;
  const sameDay = OFFSETS.get(dayKey);
  if (sameDay !== undefined) return sameDay;
  const dayFirst = zone.offset(day * DAY_MS);
  if (zone.offset(day * DAY_MS + DAY_MS - 1) === dayFirst) return remember(dayKey, dayFirst);
  const hour = Math.floor(ts / HOUR_MS);
  const key = `${zone.name}|${hour}`;
  const known = OFFSETS.get(key);
  if (known !== undefined) return known;
  const first = zone.offset(hour * HOUR_MS);
  if (zone.offset(hour * HOUR_MS + HOUR_MS - 1) !== first) return zone.offset(ts);
  return remember(key, first);
}

function remember(key: string, offset: number): number {
  // Bounded: emptied rather than evicted one by one; the days and hours in use come back at once.
  if (OFFSETS.size >= MAX_REMEMBERED_OFFSETS) OFFSETS.clear();
  OFFSETS.set(key, offset);
  return offset;
}

/**
 * Like resolveZone, but for zones that were validated earlier: an unknown name is a bug, so it throws.
 * A Zone instance is returned as is.
 */
export function requireZone(zone: Zone | string): Zone {
  if (typeof zone !== 'string') {
    if (!zone.isValid) throw new RangeError(`Invalid time zone: ${zone.name}`);
    return zone;
  }
  const resolved = resolveZone(zone);
  if (!resolved) throw new RangeError(`Invalid time zone: ${zone}`);
  return resolved;
}

// ---------------------------------------------------------------------------------------------
// Abbreviations (spec README §7: "the zone's abbreviation at the event start as listed in the IANA
// database; if the database has no alphabetic abbreviation, the numeric form").
//
// Node ships no tzdata abbreviations, and Intl's `short` names are locale-dependent and partly CLDR
// inventions (en-GB prints `GST` for Dubai, where IANA has `+04`; en-US prints `GMT+2` for Berlin).
// What Intl does give reliably, in the always-present `en-US` locale, is the CLDR *metazone* long
// name (`Central European Summer Time`). IANA's alphabetic abbreviations correspond one-to-one to a
// small set of metazones, so we map those names to the IANA abbreviation; every other metazone
// (`Gulf Standard Time`, `Singapore Standard Time`, …) has only a numeric abbreviation in IANA.
// This was checked against tzdata 2025b for every zone Intl lists, in winter and summer.
// ---------------------------------------------------------------------------------------------

/** en-US metazone long name → IANA abbreviation. */
const METAZONE_ABBR: Readonly<Record<string, string>> = {
  'Coordinated Universal Time': 'UTC',
  'Greenwich Mean Time': 'GMT',
  'British Summer Time': 'BST',
  'Irish Standard Time': 'IST',
  'Western European Standard Time': 'WET',
  'Western European Summer Time': 'WEST',
  'Central European Standard Time': 'CET',
  'Central European Summer Time': 'CEST',
  'Eastern European Standard Time': 'EET',
  'Eastern European Summer Time': 'EEST',
  'Moscow Standard Time': 'MSK',
  'West Africa Time': 'WAT',
  'West Africa Standard Time': 'WAT',
  'Central Africa Time': 'CAT',
  'East Africa Time': 'EAT',
  'South Africa Standard Time': 'SAST',
  'Israel Standard Time': 'IST',
  'Israel Daylight Time': 'IDT',
  'Pakistan Standard Time': 'PKT',
  'India Standard Time': 'IST',
  'Western Indonesia Time': 'WIB',
  'Central Indonesia Time': 'WITA',
  'Eastern Indonesia Time': 'WIT',
  'China Standard Time': 'CST',
  'Taipei Standard Time': 'CST',
  'Taiwan Standard Time': 'CST',
  'Hong Kong Standard Time': 'HKT',
  'Philippine Standard Time': 'PST',
  'Japan Standard Time': 'JST',
  'Korean Standard Time': 'KST',
  'Australian Western Standard Time': 'AWST',
  'Australian Central Standard Time': 'ACST',
  'Australian Central Daylight Time': 'ACDT',
  'Australian Eastern Standard Time': 'AEST',
  'Australian Eastern Daylight Time': 'AEDT',
  'Chamorro Standard Time': 'ChST',
  'New Zealand Standard Time': 'NZST',
  'New Zealand Daylight Time': 'NZDT',
  'American Samoa Standard Time': 'SST',
  'Hawaii-Aleutian Standard Time': 'HST',
  'Hawaii-Aleutian Daylight Time': 'HDT',
  'Alaska Standard Time': 'AKST',
  'Alaska Daylight Time': 'AKDT',
  'Pacific Standard Time': 'PST',
  'Pacific Daylight Time': 'PDT',
  'Mexican Pacific Standard Time': 'MST',
  'Mexican Pacific Daylight Time': 'MDT',
  'Mountain Standard Time': 'MST',
  'Mountain Daylight Time': 'MDT',
  'Yukon Time': 'MST',
  'Central Standard Time': 'CST',
  'Central Daylight Time': 'CDT',
  'Cuba Standard Time': 'CST',
  'Cuba Daylight Time': 'CDT',
  'Eastern Standard Time': 'EST',
  'Eastern Daylight Time': 'EDT',
  'Atlantic Standard Time': 'AST',
  'Atlantic Daylight Time': 'ADT',
  'Newfoundland Standard Time': 'NST',
  'Newfoundland Daylight Time': 'NDT',
};

/** Zones that CLDR files under one of the metazones above but that IANA writes numerically. */
const NUMERIC_IN_IANA: ReadonlySet<string> = new Set([
  'Antarctica/Casey', // CLDR: Australian Western; IANA: +08
  'Antarctica/Troll', // CLDR: Greenwich Mean Time; IANA: +00/+02
  'Asia/Colombo', // CLDR: India; IANA: +0530
  'Europe/Minsk', // CLDR: Moscow; IANA: +03
]);

/** Links to Europe/London that CLDR keeps apart and gives no summer-time metazone. */
const LONDON_LINKS: ReadonlySet<string> = new Set(['Europe/Guernsey', 'Europe/Isle_of_Man', 'Europe/Jersey']);

/** IANA's own spellings of zero-offset GMT, which Intl folds into UTC. */
const GMT_NAMES: ReadonlySet<string> = new Set(
  ['GMT', 'GMT0', 'GMT+0', 'GMT-0', 'Greenwich', 'Etc/GMT', 'Etc/GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'Etc/Greenwich'].map((n) => n.toLowerCase()),
);

const canonicalNames = new Map<string, string>();

/** ICU's canonical id for an IANA name (`US/Eastern` → `America/New_York`). */
function canonicalZoneName(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    canonicalNames.set(name, canonical);
  }
  return canonical;
}

/** IANA's numeric abbreviation for an offset: `+03`, `-0330`, `+0545`, `+00`. */
export function numericAbbr(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = abs % 60;
  return minutes === 0 ? `${sign}${hours}` : `${sign}${hours}${String(minutes).padStart(2, '0')}`;
}

/**
 * The zone's abbreviation at an instant (spec README §7): `EST`/`EDT`, `CET`/`CEST`, `JST`, …;
 * the numeric form where IANA has no letters (`+04`, `+0545`); for `UTC±N` zones the zone text
 * itself (`UTC+2`). Returns '' for an invalid zone or instant.
 */
export function timezoneAbbr(zoneName: string, instantUtc: DateTime): string {
  const zone = resolveZone(zoneName);
  if (!zone || !instantUtc.isValid) return '';
  if (zone.type === 'fixed') return zoneName;

  const ts = instantUtc.toMillis();
  const offset = offsetAt(zone, ts);
  if (GMT_NAMES.has(zoneName.toLowerCase())) return 'GMT';

  const canonical = canonicalZoneName(zone.name);
  if (NUMERIC_IN_IANA.has(canonical)) return numericAbbr(offset);
  if (LONDON_LINKS.has(canonical)) return offset === 0 ? 'GMT' : 'BST';

  // Asking Intl for the metazone is the costly part (every presented event needs it). Within a
  // year, a zone's offset tells its metazone (standard or summer time); a zone that moved to
  // another metazone did so from one year to the next, so the year is part of the key.
  const key = `${canonical}|${offset}|${new Date(ts).getUTCFullYear()}`;
  let abbr = ABBREVIATIONS.get(key);
  if (abbr === undefined) {
    const metazone = zone.offsetName(ts, { format: 'long', locale: 'en-US' });
    abbr = (metazone !== null && METAZONE_ABBR[metazone]) || numericAbbr(offset);
    if (ABBREVIATIONS.size < MAX_REMEMBERED_ABBREVIATIONS) ABBREVIATIONS.set(key, abbr);
  }
  return abbr;
}

/** Abbreviations by zone, offset and year: a few per zone and year in use, bounded all the same. */
const ABBREVIATIONS = new Map<string, string>();
const MAX_REMEMBERED_ABBREVIATIONS = 20_000;
