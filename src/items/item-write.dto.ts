import { ApiPropertyOptional } from '@nestjs/swagger';
import { dateInputDoc, idDoc } from '../common/http/route-docs';
import { PARAM_MESSAGES } from '../common/errors';
import { Check, DateParam, INVALID, NonEmptyString, Optional, toInt } from '../common/params';
import { isWriteStatus, WRITE_STATUSES } from './statuses';

/** `author`: a whole number ≥ 1 (its existence is checked by the service). */
const isPositiveId = (v: unknown) => {
  const n = toInt(v);
  return n !== INVALID && n >= 1 && Number.isSafeInteger(n);
};

/** Write fields every item kind has: events, venues, organizers (spec endpoints.md §3, §4.3, §4.6, §5.2). */
export class ItemWriteDto {
  @ApiPropertyOptional({
    type: 'string',
    description:
      'Slug (the name in URLs): lower case letters, digits, `-` and `_`; other text is converted. Made from the title or name when ' +
      'omitted. When another item has it, `-2`, `-3`… is appended.',
  })
  @Optional()
  @NonEmptyString()
  slug?: string;

  @ApiPropertyOptional({ type: 'string', enum: [...WRITE_STATUSES], description: 'Status (contributors: publish, future and private become pending)' })
  @Optional()
  @Check('writeStatus', isWriteStatus, PARAM_MESSAGES.status)
  status?: string;

  @ApiPropertyOptional(idDoc('Author user id (only editors and administrators may name another user)'))
  @Optional()
  @Check('author', isPositiveId, PARAM_MESSAGES.unknownId('user'))
  author?: string | number;

  @ApiPropertyOptional(dateInputDoc('Publication date (events: in `timezone` or the site zone; others: the site zone)'))
  @Optional()
  @DateParam()
  date?: string | number;

  @ApiPropertyOptional(dateInputDoc('Publication date in UTC'))
  @Optional()
  @DateParam()
  date_utc?: string | number;
}
