import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Check, IntParam, Optional, StrictBool, StringListParam } from '../../common/params';

export const MAX_CHANGES_PER_PAGE = 500;
/** Which kinds exist is known once the features are composed: ChangesService.checkTypes checks `types`. */
const KINDS_TEXT = 'the change kinds of the service: `event`, `venue`, `organizer`, `category`, `tag`, and those its extensions add';
const typesDoc = {
  type: 'array',
  items: { type: 'string' },
  style: 'form',
  explode: false,
  description: `Only these kinds (default: all): ${KINDS_TEXT}`,
} as const;

/** GET {api_root}/changes (sync.md). */
export class ChangesQueryDto {
  @ApiPropertyOptional({ type: 'string', description: 'A `next_sync_token` of an earlier answer; without it, every item you can read, from the beginning' })
  @Optional()
  @Check('syncToken', (v) => typeof v === 'string' && v !== '', 'Must be a sync token from an earlier answer.')
  since?: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: 100,
    minimum: 1,
    maximum: MAX_CHANGES_PER_PAGE,
    description: 'Changes per answer; values above 500 are clamped to 500',
  })
  @Optional()
  @IntParam({ clamp: MAX_CHANGES_PER_PAGE })
  per_page?: number;

  @ApiPropertyOptional(typesDoc)
  @Optional()
  @StringListParam({ nonEmpty: true })
  types?: string[];

  @ApiPropertyOptional({ type: 'boolean', default: false, description: 'Each upsert carries `item`, the item as its single GET gives it to you' })
  @Optional()
  @StrictBool()
  embed?: boolean;
}

export class ChangeDto {
  @ApiProperty({ description: `The item's kind: one of ${KINDS_TEXT}` }) type: string;
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ enum: ['upsert', 'delete'] }) action: string;
  @ApiPropertyOptional({ description: "The item's modified_utc (events, venues, organizers; upserts only)" }) modified_utc?: string;
  @ApiPropertyOptional({ description: "The item's URL in the API (upserts only)" }) rest_url?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'With embed=true: the item as its single GET gives it to you' })
  item?: Record<string, unknown>;
}

export class ChangesDto {
  @ApiProperty({ type: [ChangeDto] }) changes: ChangeDto[];
  @ApiProperty({ description: 'Where to continue: pass it as `since` next time' }) next_sync_token: string;
  @ApiProperty({ description: 'True when more changes follow at once: call again with next_sync_token' }) has_more: boolean;
}
