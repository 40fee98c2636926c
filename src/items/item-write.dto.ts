import { ApiPropertyOptional } from '@nestjs/swagger';
import { PARAM_MESSAGES } from '../common/errors';
import { Check, DateParam, INVALID, NonEmptyString, Optional, toInt } from '../common/params';
import { isWriteStatus, WRITE_STATUSES } from './statuses';

/** `author`: a whole number ≥ 1 (its existence is checked by the service). */
const isPositiveId = (v: unknown) => {
  const n = toInt(v);
  return n !== INVALID && n >= 1 && Number.isSafeInteger(n);
};

const dateDoc = (description: string) => ({ type: 'string', description: `${description} (any format of spec README §6.2)` }) as const;

/** Write fields every item kind has: events, venues, organizers (spec endpoints.md §3, §4.3, §4.6, §5.2). */
export class ItemWriteDto {
  @ApiPropertyOptional({ type: 'string', description: 'Slug; generated from the title or name when omitted (spec endpoints.md §4.6)' })
  @Optional()
  @NonEmptyString()
  slug?: string;

  @ApiPropertyOptional({ type: 'string', enum: [...WRITE_STATUSES], description: 'Status (contributors: publish, future and private become pending)' })
  @Optional()
  @Check('writeStatus', isWriteStatus, PARAM_MESSAGES.status)
  status?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Author user id (only editors and administrators may name another user)' })
  @Optional()
  @Check('author', isPositiveId, PARAM_MESSAGES.unknownId('user'))
  author?: string | number;

  @ApiPropertyOptional(dateDoc('Publication date (events: in `timezone` or the site zone; others: the site zone)'))
  @Optional()
  @DateParam()
  date?: string | number;

  @ApiPropertyOptional(dateDoc('Publication date in UTC'))
  @Optional()
  @DateParam()
  date_utc?: string | number;
}
