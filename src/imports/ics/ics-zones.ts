import ICAL from 'ical.js';
import { FixedOffsetZone, IANAZone, Zone } from 'luxon';
import { findIana, findWindows, IANA_ALIAS_MAP, WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { offsetChanges, YearSpan } from '../../common/ical/vtimezone';
import { isFixedOffsetName, resolveZone } from '../../common/datetime/zones';

// Which zone a TZID names (ical.md, Import: "TZIDs (IANA or Windows names, or a VTIMEZONE that
// matches a known zone) become the event's zone"). In order:
//  1. an IANA name (`Europe/Berlin`), also behind a vendor prefix (`/mozilla.org/20050126_1/Europe/Berlin`);
//  2. a fixed offset (`UTC+01`, `GMT-05:00`, Windows' own `UTC-02`): the service's `UTC±N` zone;
//  3. a Windows name (`W. Europe Standard Time`), through CLDR's windowsZones table as the
//     windows-iana package ships it (territory 001, the zone Windows itself means);
//  4. a Windows display name (`(UTC-05:00) Eastern Time (US & Canada)`, older Outlook's
//     `(GMT+01.00) Amsterdam / Berlin / …`): its cities, found in windows-iana's table of IANA
//     zones and their places, give the Windows zone they belong to (so the zone Windows means),
//     when its standard offset is the one the name says; the few names without a city
//     (`Eastern Time (US & Canada)`) are listed here with the Windows zone they name;
//  5. the calendar's VTIMEZONE of that TZID, compared observance by observance with every IANA
//     zone over the years the events use: the first (best ranked) zone whose offsets and
//     offset changes are the same wins;
//  6. a VTIMEZONE no IANA zone matches still tells the offsets: its own rules give the instants,
//     and the event gets the fixed `UTC±H:MM` zone in force at its start.

const DAY_MS = 24 * 60 * 60_000;

/** What a TZID resolved to: `name` is the event's zone; `rules` computes instants (the named zone, or the VTIMEZONE's own rules). */
export interface TzidZone {
  /** IANA name, or null when only the VTIMEZONE's rules are known (the event then gets a `UTC±H:MM` zone). */
  name: string | null;
  rules: Zone;
  how: 'iana' | 'fixed' | 'windows' | 'display' | 'vtimezone' | 'rules';
}

/** An IANA zone name in a TZID, as written or behind a vendor prefix; null when there is none. */
export function ianaFromTzid(tzid: string): string | null {
  const text = tzid.trim().replace(/^"|"$/g, '');
  const parts = text.split('/').filter((p) => p !== '');
  // `Europe/Berlin`, `America/Argentina/Buenos_Aires`, `/mozilla.org/20050126_1/Europe/Berlin`: try the longest tail first.
  for (let i = 0; i < parts.length; i++) {
    const candidate = parts.slice(i).join('/');
    const zone = resolveZone(candidate);
    if (zone?.type === 'iana') return candidate;
  }
  return null;
}

/** The IANA zone Windows means by a zone name (`Pacific Standard Time` → `America/Los_Angeles`), or null. */
export function windowsToIana(name: string): string | null {
  const found = findIana(name.trim());
  return found.find((candidate) => IANAZone.isValidZone(candidate)) ?? null;
}

/** `UTC+01`, `GMT-05:00`, `UTC+5:30`, `(UTC+01:00)`: minutes ahead of UTC; null when the TZID is not a fixed offset. */
export function fixedOffsetMinutes(tzid: string): number | null {
  const m = /^\(?\s*(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?:[:.]?(\d{2}))?\s*\)?$/i.exec(tzid.trim().replace(/^"|"$/g, ''));
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/** The service's name of a fixed offset (`UTC+1`, `UTC-3:30`, `UTC`), or null when out of its range. */
export function fixedOffsetZoneName(minutes: number): string | null {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const hm = abs % 60 === 0 ? String(abs / 60) : `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  const name = `UTC${minutes < 0 ? '-' : '+'}${hm}`;
  return isFixedOffsetName(name) ? name : null;
}

/**
 * Windows display names that name no city, and the Windows zone each stands for (the others are
 * found by their cities). Lower case, as compared.
 */
const DISPLAY_WITHOUT_CITY: Readonly<Record<string, string>> = {
  'eastern time (us & canada)': 'Eastern Standard Time',
  'central time (us & canada)': 'Central Standard Time',
  'mountain time (us & canada)': 'Mountain Standard Time',
  'pacific time (us & canada)': 'Pacific Standard Time',
  'pacific time (us & canada); tijuana': 'Pacific Standard Time',
  'atlantic time (canada)': 'Atlantic Standard Time',
  alaska: 'Alaskan Standard Time',
  hawaii: 'Hawaiian Standard Time',
  arizona: 'US Mountain Standard Time',
  'indiana (east)': 'US Eastern Standard Time',
  saskatchewan: 'Canada Central Standard Time',
  newfoundland: 'Newfoundland Standard Time',
  'central america': 'Central America Standard Time',
  'west central africa': 'W. Central Africa Standard Time',
  'international date line west': 'Dateline Standard Time',
  yukon: 'Yukon Standard Time',
  'baja california': 'Pacific Standard Time (Mexico)',
  greenland: 'Greenland Standard Time',
  'easter island': 'Easter Island Standard Time',
  samoa: 'Samoa Standard Time',
  'cabo verde is.': 'Cape Verde Standard Time',
  'cape verde is.': 'Cape Verde Standard Time',
  azores: 'Azores Standard Time',
};

/** Places (lower case) and the IANA zones there, from windows-iana's table of zones (their names' last part, and their descriptions' first part). */
let places: Map<string, string[]> | undefined;
function placeZones(): Map<string, string[]> {
  if (places) return places;
  places = new Map();
  const add = (place: string, zone: string) => {
    const key = place.replace(/_/g, ' ').trim().toLowerCase();
    if (key !== '' && !(places!.get(key) ?? []).includes(zone)) places!.set(key, [...(places!.get(key) ?? []), zone]);
  };
  for (const row of IANA_ALIAS_MAP) {
    for (const zone of row.alias) {
      add(zone.split('/').pop() ?? zone, zone);
      add(row.description.split(',')[0], zone);
    }
  }
  return places;
}

/** The offset of a zone outside daylight saving time this year (what a display name says). */
function standardOffset(zone: string): number {
  const z = IANAZone.create(zone);
  const year = new Date().getUTCFullYear();
  return Math.min(z.offset(Date.UTC(year, 0, 1)), z.offset(Date.UTC(year, 6, 1)));
}

/**
 * The zone a Windows display name means (`(UTC-05:00) Eastern Time (US & Canada)` →
 * America/New_York, `(GMT +01:00) Amsterdam, Berlin…` → Europe/Berlin, `(UTC-02:00)
 * Coordinated Universal Time-02` → `UTC-2`), or null.
 */
export function displayNameToIana(tzid: string): string | null {
  const m = /^\(\s*(?:UTC|GMT)\s*(?:([+-])\s*(\d{1,2})(?:[:.]?(\d{2}))?)?\s*\)\s*(.+)$/i.exec(tzid.trim().replace(/^"|"$/g, ''));
  if (!m) return null;
  const offset = m[1] === undefined ? 0 : (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  const description = m[4]
    .replace(/(…|\.\.\.)\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Windows' `(UTC-02:00) Coordinated Universal Time-02`: the offset it says, all year.
  if (/^coordinated universal time(?:[+-]\d{1,2})?$/i.test(description)) return fixedOffsetZoneName(offset);
  const named = DISPLAY_WITHOUT_CITY[description.toLowerCase()];
  if (named) return windowsToIana(named);
  for (const city of description.split(/\s*[,/;]\s*|\s+-\s+/)) {
    for (const zone of placeZones().get(
      city
        .replace(/^greenwich mean time\s*:\s*/i, '')
        .trim()
        .toLowerCase(),
    ) ?? []) {
      if (!IANAZone.isValidZone(zone)) continue;
      // The zone Windows means for that place: Amsterdam is in W. Europe Standard Time, which Windows reads as Europe/Berlin.
      const windows = findWindows(zone)[0];
      const meant = (windows && windowsToIana(windows)) ?? zone;
      if (IANAZone.isValidZone(meant) && standardOffset(meant) === offset) return meant;
    }
  }
  return null;
}

/** The zones Windows names stand for (territory 001): preferred when several IANA zones match a VTIMEZONE. */
const WINDOWS_PRIMARY: ReadonlySet<string> = new Set(WINDOWS_TO_IANA_MAP.filter((row) => row.territory === '001').map((row) => row.iana[0]));

/** One offset change of a VTIMEZONE: from `atMs` on, `to` minutes ahead of UTC. */
interface Onset {
  atMs: number;
  from: number;
  to: number;
}

/**
 * A VTIMEZONE as a luxon zone. Its observances (STANDARD/DAYLIGHT: DTSTART as local time in
 * TZOFFSETFROM, RRULE/RDATE for later onsets) are turned into the list of instants at which the
 * offset changes, up to the end of `lastYear`; the offset at an instant is then that of the last
 * onset before it. (ical.js's own UTC-to-local conversion reads an onset as a UTC time, which
 * puts the change an offset's worth of hours off.)
 */
export class VtimezoneZone extends Zone {
  private readonly onsets: Onset[];

  constructor(
    component: ICAL.Component,
    private readonly tzid: string,
    lastYear = new Date().getUTCFullYear() + 2,
  ) {
    super();
    const endMs = Date.UTC(lastYear + 1, 0, 1);
    this.onsets = component
      .getAllSubcomponents()
      .filter((c) => c.name === 'standard' || c.name === 'daylight')
      .flatMap((c) => observanceOnsets(c, endMs))
      .sort((a, b) => a.atMs - b.atMs);
    if (this.onsets.length === 0) throw new RangeError(`VTIMEZONE ${tzid} has no observance`);
  }

  override get type(): string {
    return 'vtimezone';
  }
  override get name(): string {
    return this.tzid;
  }
  override get isUniversal(): boolean {
    return false;
  }
  override get isValid(): boolean {
    return true;
  }
  override offsetName(): string {
    return this.tzid;
  }
  override formatOffset(ts: number): string {
    const minutes = this.offset(ts);
    const abs = Math.abs(minutes);
    return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }
  override equals(other: Zone): boolean {
    return other === this;
  }

  override offset(ts: number): number {
    // Binary search for the last onset at or before ts.
    let lo = 0;
    let hi = this.onsets.length - 1;
    if (ts < this.onsets[0].atMs) return this.onsets[0].from;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.onsets[mid].atMs <= ts) lo = mid;
      else hi = mid - 1;
    }
    return this.onsets[lo].to;
  }
}

const MAX_ONSETS_PER_OBSERVANCE = 5000;

/** The onsets of one STANDARD or DAYLIGHT observance before `endMs`. */
function observanceOnsets(c: ICAL.Component, endMs: number): Onset[] {
  const minutes = (name: string) => {
    const value = c.getFirstPropertyValue(name);
    return value instanceof ICAL.UtcOffset ? value.toSeconds() / 60 : null;
  };
  const from = minutes('tzoffsetfrom');
  const to = minutes('tzoffsetto');
  const start = c.getFirstPropertyValue('dtstart');
  if (from === null || to === null || !(start instanceof ICAL.Time)) return [];
  // Local wall times in the offset in force before the onset.
  const instant = (t: ICAL.Time) =>
    t.zone === ICAL.Timezone.utcTimezone
      ? Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second)
      : Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - from * 60_000;
  const floating = (t: ICAL.Time) => ICAL.Time.fromData({ year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second });
  const onsets: Onset[] = [{ atMs: instant(start), from, to }];
  for (const prop of c.getAllProperties('rrule')) {
    const recur = (prop.getFirstValue() as ICAL.Recur).clone();
    const untilMs = recur.until ? instant(recur.until) : Infinity;
    recur.until = null;
    const iterator = recur.iterator(floating(start));
    for (let i = 0; i < MAX_ONSETS_PER_OBSERVANCE; i++) {
      const next = iterator.next();
      if (!next) break;
      const atMs = instant(next);
      if (atMs > untilMs || atMs >= endMs) break;
      onsets.push({ atMs, from, to });
    }
  }
  for (const prop of c.getAllProperties('rdate')) {
    for (const value of prop.getValues()) {
      const t = value instanceof ICAL.Period ? value.start : value;
      if (t instanceof ICAL.Time) onsets.push({ atMs: instant(t), from, to });
    }
  }
  return onsets.filter((o, i, all) => all.findIndex((x) => x.atMs === o.atMs) === i);
}

/** The instants compared: a day wider than the years on each side, like the export's VTIMEZONEs. */
function spanMs(years: YearSpan): { fromMs: number; toMs: number } {
  return { fromMs: Date.UTC(years.from, 0, 1) - DAY_MS, toMs: Date.UTC(years.to + 1, 0, 1) + DAY_MS };
}

/** Every IANA zone ICU knows, canonical names only (ICU lists no links). */
let allZones: string[] | undefined;
function ianaZones(): string[] {
  allZones ??= Intl.supportedValuesOf('timeZone').filter((name) => IANAZone.isValidZone(name));
  return allZones;
}

/**
 * The IANA zone whose offsets and offset changes over `years` are those of `rules`, or null.
 * When several match (a VTIMEZONE names no city), the order is: a zone the TZID or its
 * X-LIC-LOCATION names, then a zone a Windows name stands for, then the alphabet.
 */
export function matchRules(rules: Zone, years: YearSpan, hints: string[] = []): string | null {
  const { fromMs, toMs } = spanMs(years);
  // Both sides of every change of `rules`, then the middle of every month: cheap, and most zones fail here.
  const firstChecks: number[] = [fromMs];
  for (const change of offsetChanges(rules, fromMs, toMs)) firstChecks.push(change.atMs - 60_000, change.atMs);
  for (let y = years.from; y <= years.to; y++) for (let m = 0; m < 12; m++) firstChecks.push(Date.UTC(y, m, 15, 12));
  // Then once a week, which also catches a zone with a change `rules` does not have.
  const weekly: number[] = [];
  for (let ms = fromMs; ms < toMs; ms += 7 * DAY_MS) weekly.push(ms);
  const agrees = (zone: Zone, instants: number[]) => instants.every((ms) => zone.offset(ms) === rules.offset(ms));
  const matching = ianaZones().filter((name) => {
    const zone = IANAZone.create(name);
    return agrees(zone, firstChecks) && agrees(zone, weekly);
  });
  if (matching.length === 0) return null;
  const hinted = (name: string) => {
    const city = (name.split('/').pop() ?? name).replace(/_/g, ' ').toLowerCase();
    return hints.some((hint) => hint.toLowerCase() === name.toLowerCase() || hint.toLowerCase().includes(city));
  };
  const rank = (name: string) => (hinted(name) ? 0 : WINDOWS_PRIMARY.has(name) ? 1 : 2);
  return matching.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0];
}

/**
 * Resolves the TZIDs of one calendar, remembering each answer (a VTIMEZONE comparison looks at
 * every IANA zone). `years`: the years whose offsets must agree for a VTIMEZONE match.
 */
export class TzidResolver {
  private readonly known = new Map<string, TzidZone | null>();

  constructor(
    private readonly vtimezones: ReadonlyMap<string, ICAL.Component>,
    private readonly years: YearSpan,
  ) {}

  /** The zone of a TZID, or null when neither its name nor a VTIMEZONE says what it is. */
  resolve(tzid: string): TzidZone | null {
    let found = this.known.get(tzid);
    if (found === undefined) {
      found = this.lookUp(tzid);
      this.known.set(tzid, found);
    }
    return found;
  }

  private lookUp(tzid: string): TzidZone | null {
    const iana = ianaFromTzid(tzid);
    if (iana) return { name: iana, rules: IANAZone.create(iana), how: 'iana' };
    const offset = fixedOffsetMinutes(tzid);
    const fixed = offset === null ? null : fixedOffsetZoneName(offset);
    if (offset !== null && fixed !== null) return { name: fixed, rules: FixedOffsetZone.instance(offset), how: 'fixed' };
    const windows = windowsToIana(tzid);
    if (windows) return { name: windows, rules: IANAZone.create(windows), how: 'windows' };
    const display = displayNameToIana(tzid);
    const displayRules = display === null ? null : resolveZone(display);
    if (display && displayRules) return { name: display, rules: displayRules, how: 'display' };
    const component = this.vtimezones.get(tzid);
    if (!component) return null;
    let rules: VtimezoneZone;
    try {
      rules = new VtimezoneZone(component, tzid, this.years.to + 1);
    } catch {
      return null; // a VTIMEZONE ical.js cannot read
    }
    const location = component.getFirstPropertyValue('x-lic-location');
    const matched = matchRules(rules, this.years, [tzid, ...(typeof location === 'string' ? [location] : [])]);
    return matched ? { name: matched, rules: IANAZone.create(matched), how: 'vtimezone' } : { name: null, rules, how: 'rules' };
  }
}
