import { ApiPropertyOptional } from '@nestjs/swagger';
import { Optional, StrictBool } from '../common/params';

/** DELETE of an event, venue or organizer, by id or by slug. */
export class DeleteItemQueryDto {
  @ApiPropertyOptional({ type: 'boolean', default: false, description: 'true: delete for good instead of moving to the trash (beyond.md #1)' })
  @Optional()
  @StrictBool()
  force?: boolean;
}
