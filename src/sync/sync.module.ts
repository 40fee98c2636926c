import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { MetricsModule } from '../common/metrics';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { VenuesModule } from '../venues';
import { ChangesController } from './changes.controller';
import { ChangesRepository } from './changes.repository';
import { ChangesService } from './changes.service';
import { WebhookMetrics } from './webhooks/webhook-metrics';
import { WebhookOutbox } from './webhooks/webhook-outbox';
import { DeliveryBodies } from './webhooks/delivery-bodies';
import { DeliveryClaimsRepository } from './webhooks/delivery-claims.repository';
import { WebhookWorker } from './webhooks/webhook-worker';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksRepository } from './webhooks/webhooks.repository';
import { WebhooksService } from './webhooks/webhooks.service';

/** The change feed and the webhooks of sync.md. */
@Module({
  imports: [CacheModule, MetricsModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule],
  controllers: [ChangesController, WebhooksController],
  providers: [
    ChangesService,
    ChangesRepository,
    WebhooksService,
    WebhooksRepository,
    WebhookWorker,
    DeliveryClaimsRepository,
    DeliveryBodies,
    WebhookOutbox,
    WebhookMetrics,
  ],
  // ChangesService: the editing pages' overview shows the latest changes.
  exports: [ChangesService],
})
export class SyncModule {}
