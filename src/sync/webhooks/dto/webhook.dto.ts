import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Check, NonEmptyString, Optional, Required, StrictBool } from '../../../common/params';

const ACTIONS = ['created', 'updated', 'deleted', '*'];
/**
 * `*`, `{type}.*` or `{type}.{created|updated|deleted}` (sync.md "Webhooks"), where `isKind`
 * says which types exist: the DTO checks the form (any type), WebhooksService the kinds the
 * installed features registered, which are known only once they are composed.
 */
export const isEventPattern = (p: unknown, isKind: (type: string) => boolean = () => true): boolean => {
  if (p === '*') return true;
  if (typeof p !== 'string') return false;
  const [type, action, ...rest] = p.split('.');
  return rest.length === 0 && type !== '' && isKind(type) && ACTIONS.includes(action ?? '');
};
export const EVENTS_MESSAGE = 'Must be a non-empty list of event names such as event.created, venue.* or *.';
const URL_MESSAGE = 'Must be an http or https URL of a public address.';
const isHttpUrl = (v: unknown): boolean => {
  if (typeof v !== 'string' || v.length > 2000) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

const eventsDoc = {
  type: 'array',
  items: { type: 'string', example: 'event.created' },
  description: 'Event names: `{type}.created`, `{type}.updated`, `{type}.deleted` (type: event, venue, organizer, category, tag), `{type}.*`, or `*`',
} as const;
const urlDoc = {
  type: 'string',
  format: 'uri',
  description: 'Where deliveries are POSTed (http or https; not a private address unless the server allows it)',
} as const;
const secretDoc = {
  type: 'string',
  description: 'The HMAC secret deliveries are signed with; generated when absent. Never shown again after the create answer.',
} as const;

class WebhookFieldsDto {
  @ApiPropertyOptional(secretDoc)
  @Optional()
  @NonEmptyString()
  @Check('secretLength', (v) => typeof v === 'string' && v.length <= 255, 'Must have at most 255 characters.')
  secret?: string;

  @ApiPropertyOptional({ type: 'boolean', default: true, description: '`false` pauses the subscription: its deliveries wait' })
  @Optional()
  @StrictBool()
  active?: boolean;
}

export class CreateWebhookDto extends WebhookFieldsDto {
  @ApiProperty(urlDoc)
  @Required()
  @Check('httpUrl', isHttpUrl, URL_MESSAGE)
  url: string;

  @ApiProperty(eventsDoc)
  @Required()
  @Check('eventPatterns', (v) => Array.isArray(v) && v.length > 0 && v.every((p) => isEventPattern(p)), EVENTS_MESSAGE)
  events: string[];
}

export class UpdateWebhookDto extends WebhookFieldsDto {
  @ApiPropertyOptional(urlDoc)
  @Optional()
  @Check('httpUrl', isHttpUrl, URL_MESSAGE)
  url?: string;

  @ApiPropertyOptional(eventsDoc)
  @Optional()
  @Check('eventPatterns', (v) => Array.isArray(v) && v.length > 0 && v.every((p) => isEventPattern(p)), EVENTS_MESSAGE)
  events?: string[];
}

export class WebhookDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'string', format: 'uri' }) url: string;
  @ApiProperty({ type: [String] }) events: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'UTC, `YYYY-MM-DD HH:MM:SS`' }) created_utc: string;
  @ApiPropertyOptional({ description: 'Only in the answer of the create' }) secret?: string;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] }) webhooks: WebhookDto[];
}

export class DeletedWebhookDto {
  @ApiProperty({ enum: [true] }) deleted: boolean;
  @ApiProperty({ type: WebhookDto }) previous: WebhookDto;
}

export class DeliveryDto {
  @ApiProperty({ description: 'The delivery uuid (X-Calendar-Delivery), the same on every attempt' }) id: string;
  @ApiProperty({ example: 'event.updated' }) event: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the last attempt' }) response_status: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why the last attempt failed' }) last_error: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'When it is tried next (pending only), UTC' }) next_attempt_utc: string | null;
}

export class DeliveryLogDto {
  @ApiProperty({ type: [DeliveryDto] }) deliveries: DeliveryDto[];
}

export class PingDto {
  @ApiProperty({ description: 'The uuid of the queued ping delivery' }) id: string;
  @ApiProperty({ enum: ['ping'] }) event: string;
  @ApiProperty({ enum: ['pending'] }) status: string;
}
