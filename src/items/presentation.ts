import { utcToWall } from '../common/datetime/format';

/** `{site host}`: host of base_url without scheme and port, followed by its path prefix (spec resources.md). */
export function siteHost(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}${url.pathname.replace(/\/+$/, '')}`;
}

export function globalIdFields(baseUrl: string, id: number): { global_id: string; global_id_lineage: string[] } {
  const globalId = `${siteHost(baseUrl)}?id=${id}`;
  return { global_id: globalId, global_id_lineage: [globalId] };
}

/** `date`, `date_utc`, `modified`, `modified_utc`: site zone and UTC (spec README §6.1). */
export function publicationFields(
  item: { dateUtc: string; modifiedUtc: string },
  siteZone: string,
): { date: string; date_utc: string; modified: string; modified_utc: string } {
  return {
    date: utcToWall(item.dateUtc, siteZone),
    date_utc: item.dateUtc,
    modified: utcToWall(item.modifiedUtc, siteZone),
    modified_utc: item.modifiedUtc,
  };
}

/**
 * Venue/organizer rule (spec resources.md §2–§3): keys whose value is empty (`""`, `false`,
 * `null`, `0`, `"0"`, `[]`) are left out, except the ones named in `keep`. Key order is kept.
 * The presenters apply it key by key as they build an item (finishLinkedItem); this plain form
 * states the rule, and the unit tests hold finishLinkedItem to it.
 */
export function omitEmpty<T extends Record<string, unknown>>(json: T, keep: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(json)) {
    const value = json[key];
    if (!isEmptyValue(value) || keep.includes(key)) out[key] = value;
  }
  return out as Partial<T>;
}

/** omitEmpty's "empty": `""`, `false`, `null`, `undefined`, `0`, `"0"`, `[]`. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === '' || value === false || value === null || value === undefined || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0)
  );
}
