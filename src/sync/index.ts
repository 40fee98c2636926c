export { SyncModule } from './sync.module';
export { ChangesService } from './changes.service';
export { WebhookOutbox } from './webhooks/webhook-outbox';
export { WebhooksRepository } from './webhooks/webhooks.repository';
