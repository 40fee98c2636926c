import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ListQueryDto } from '../common/pagination';
import { AnyString, IntParam, LooseBool, NonEmptyString, Optional, UrlOrEmpty, FitsColumn } from '../common/params';
import { ITEM_STATUSES, ItemWriteDto } from '../items';
import { LINKED_ITEM_TEXT } from './linked-item-text';

const statusListDoc = { type: 'array', items: { type: 'string', enum: [...ITEM_STATUSES] as string[] }, style: 'form', explode: false } as const;

/**
 * Write fields venues and organizers share (spec endpoints.md §5.2); each kind adds its name
 * field and its own fields. All optional here: the create DTOs require the name.
 */
export class LinkedItemFieldsDto extends ItemWriteDto {
  @ApiPropertyOptional({ type: 'string', description: 'Description (HTML); may be empty' })
  @Optional()
  @AnyString()
  @FitsColumn(LINKED_ITEM_TEXT, 'description')
  description?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Phone number; may be empty' })
  @Optional()
  @AnyString()
  @FitsColumn(LINKED_ITEM_TEXT, 'phone')
  phone?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Website: an absolute URL, or empty' })
  @Optional()
  @UrlOrEmpty()
  website?: string;

  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'integer' }], description: 'Featured image: media id or image URL; empty is ignored' })
  @Allow()
  image?: unknown;
}

/** GET /venues and GET /organizers (spec endpoints.md §5.1). */
export class ListLinkedItemsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ type: 'string', description: 'Fragments that one single field must all contain (case-insensitive)' })
  @Optional()
  @NonEmptyString()
  search?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Only items linked to this event' })
  @Optional()
  @IntParam()
  event?: number;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Loose flag: true → only items linked to a publish/future/private event; false → only items without one',
  })
  @Optional()
  @LooseBool()
  has_events?: boolean;

  @ApiPropertyOptional({ type: 'boolean', default: false, description: 'Loose flag: only items linked to an event starting now or later' })
  @Optional()
  @LooseBool()
  only_with_upcoming?: boolean;

  @ApiPropertyOptional({ ...statusListDoc, description: 'Statuses to include (anonymous callers and subscribers: publish only)' })
  @Allow()
  status?: unknown;
}
