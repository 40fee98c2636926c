import { ApiPropertyOptional } from '@nestjs/swagger';
import { DateTime } from 'luxon';
import { formatSql } from '../datetime/format';
import { parseDateInput } from '../datetime/parse-date';
import { dateInputDoc } from '../http/route-docs';
import { DateParam, Optional } from '../params';
import { PageQueryDto } from './page-query.dto';

/**
 * What every list of items takes: the page, and `modified_after` (sync.md: "Lists also accept
 * `modified_after`: only items modified after it"), so a client can catch up on a list without
 * walking the change feed.
 */
export class ListQueryDto extends PageQueryDto {
  @ApiPropertyOptional(dateInputDoc('Only items modified after this date-time (site time zone unless it carries an offset)'))
  @Optional()
  @DateParam()
  modified_after?: string;
}

/**
 * `modified_after` as the UTC `YYYY-MM-DD HH:MM:SS` that `modified_utc` columns hold: parsed in
 * the site zone like the other list dates (spec README §6.2, "for list filters … the site time
 * zone"), then converted. `undefined` when not given, `null` when it does not parse.
 */
export function modifiedAfterUtc(value: string | undefined, siteZone: string, now: DateTime): string | undefined | null {
  if (value === undefined) return undefined;
  const dt = parseDateInput(value, siteZone, now);
  return dt ? formatSql(dt.toUTC()) : null;
}
