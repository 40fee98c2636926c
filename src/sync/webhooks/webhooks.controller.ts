import { Controller, Delete, Get, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../common/auth';
import { ItemFields, ListFields } from '../../common/http/fields-routes';
import { CurrentActor, Input, PathId } from '../../common/http/request-context';
import { WebhookDocs } from '../sync-route-docs';
import { API_NAMESPACE } from '../../config/app-config';
import { CreateWebhookDto, DeletedWebhookDto, DeliveryLogDto, PingDto, UpdateWebhookDto, WebhookDto, WebhookListDto } from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

const UPDATE = {
  summary: 'Change a webhook',
  description:
    'Changes the fields given (`url`, `events`, `secret`, `active`); `active: false` pauses deliveries, which wait. POST, PUT and PATCH do the same.',
};
const UPDATED = { status: 200, type: WebhookDto, description: 'The webhook as changed' } as const;

/** The webhook routes of sync.md (administrators only). */
@ApiTags('webhooks')
@Controller(`${API_NAMESPACE}/webhooks`)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @WebhookDocs(
    {
      summary: 'Subscribe a URL to changes',
      description:
        'Deliveries are POSTed to `url` for the `events` named, signed with `secret` (generated when absent). ' +
        'The answer is the only one that shows the secret.',
    },
    { status: 201, type: WebhookDto, description: 'The new webhook, with its secret' },
    { body: CreateWebhookDto },
  )
  create(@CurrentActor() actor: Actor | null, @Input() input: CreateWebhookDto) {
    return this.webhooks.create(actor, input);
  }

  @Get()
  @ListFields('webhooks')
  @WebhookDocs(
    { summary: 'List webhooks', description: 'Every subscription, without secrets.' },
    { status: 200, type: WebhookListDto, description: 'The webhooks' },
  )
  list(@CurrentActor() actor: Actor | null) {
    return this.webhooks.list(actor);
  }

  @Get(':id')
  @ItemFields()
  @WebhookDocs(
    { summary: 'Read a webhook', description: 'One subscription, without its secret.' },
    { status: 200, type: WebhookDto, description: 'The webhook' },
    { byId: true },
  )
  get(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.webhooks.get(actor, id);
  }

  @Post(':id')
  @WebhookDocs(UPDATE, UPDATED, { body: UpdateWebhookDto, byId: true })
  update(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateWebhookDto) {
    return this.webhooks.update(actor, id, input);
  }

  @Put(':id')
  @WebhookDocs({ ...UPDATE, summary: `${UPDATE.summary} (PUT)` }, UPDATED, { body: UpdateWebhookDto, byId: true })
  put(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateWebhookDto) {
    return this.webhooks.update(actor, id, input);
  }

  @Patch(':id')
  @WebhookDocs({ ...UPDATE, summary: `${UPDATE.summary} (PATCH)` }, UPDATED, { body: UpdateWebhookDto, byId: true })
  patch(@CurrentActor() actor: Actor | null, @PathId() id: number, @Input() input: UpdateWebhookDto) {
    return this.webhooks.update(actor, id, input);
  }

  @Delete(':id')
  @WebhookDocs(
    { summary: 'Delete a webhook', description: 'Removes the subscription and its delivery log; pending deliveries are dropped.' },
    { status: 200, type: DeletedWebhookDto, description: '`deleted` and the webhook as it was' },
    { byId: true },
  )
  remove(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.webhooks.remove(actor, id);
  }

  @Get(':id/deliveries')
  @ListFields('deliveries')
  @WebhookDocs(
    { summary: 'Delivery log of a webhook', description: 'The last 100 deliveries, newest first, with their status, attempts and last answer.' },
    { status: 200, type: DeliveryLogDto, description: 'The deliveries' },
    { byId: true },
  )
  deliveries(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.webhooks.deliveryLog(actor, id);
  }

  @Post(':id/ping')
  @WebhookDocs(
    { summary: 'Send a ping', description: 'Queues a `ping` delivery to the webhook, signed and retried like any other.' },
    { status: 202, type: PingDto, description: 'The queued delivery' },
    { byId: true },
  )
  ping(@CurrentActor() actor: Actor | null, @PathId() id: number) {
    return this.webhooks.ping(actor, id);
  }
}
