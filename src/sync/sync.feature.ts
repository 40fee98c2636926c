import type { Feature } from '../common/feature/feature';
import { SyncModule } from './sync.module';
import { WebhookDeliveryEntity, WebhookEntity } from './webhooks/webhook.entity';

/** The change feed and webhooks (sync.md): subscriptions and their outbox. */
export const SYNC_FEATURE: Feature = { name: 'sync', modules: [SyncModule], entities: [WebhookEntity, WebhookDeliveryEntity] };
