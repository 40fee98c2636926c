import { Injectable } from '@nestjs/common';
import { ReadModel } from '../../common/cache/read-model';
import { currentLinks } from '../../common/http/api-links';
import { AppConfig } from '../../config/app-config';
import { ChangesService } from '../changes.service';
import { encodeSyncToken } from '../sync-token';
import type { ClaimedDelivery } from './delivery-claims.repository';
import { deliveryBody } from './post-messages';

/**
 * What a round of the delivery worker sends: each delivery's JSON (sync.md "Webhooks"), built
 * when it is sent so that `data.item` is the item's current public state. The items of a round
 * are read together, as their single GETs answer an anonymous caller (the change feed's
 * readers), and put into the bodies as the text those GETs send.
 */
@Injectable()
export class DeliveryBodies {
  constructor(
    private readonly changes: ChangesService,
    private readonly readModel: ReadModel,
    private readonly config: AppConfig,
  ) {}

  /** Each delivery's body, by delivery id. */
  async of(deliveries: ClaimedDelivery[]): Promise<Map<string, Uint8Array>> {
    const known = new Map(deliveries.map((d) => [d.id, parseKnown(d.known)]));
    const wanted = deliveries.filter((d) => d.type !== 'ping' && !known.get(d.id)!.deleted).map((d) => ({ type: d.type, id: d.itemId }));
    // The deliveries were queued by commits that may be another instance's, which this one's
    // caches would notice only at their next poll of the change log: the items as they are now.
    await this.readModel.catchUp();
    const items = await this.changes.items(null, wanted);
    const links = currentLinks(this.config.baseUrl);
    const out = new Map<string, Uint8Array>();
    for (const d of deliveries) {
      const created = d.createdUtc.slice(0, 19);
      if (d.type === 'ping') {
        out.set(d.id, deliveryBody({ id: d.id, event: 'ping', created_utc: created }, { webhook_id: d.webhookId }));
        continue;
      }
      const type = d.type;
      const { deleted } = known.get(d.id)!;
      const data: Record<string, unknown> = { type, id: d.itemId, rest_url: links.href(this.changes.restPath(type, d.itemId)) };
      if (deleted) data.deleted = deleted;
      const item = deleted ? undefined : items.get(`${type}:${d.itemId}`);
      const head = { id: d.id, event: d.event, created_utc: created, sync_token: encodeSyncToken(d.seq) };
      out.set(d.id, deliveryBody(head, data, item));
    }
    return out;
  }
}

/** What the enqueueing write stored: for deletes, which kind. */
function parseKnown(text: string): { deleted?: string } {
  try {
    const value = JSON.parse(text) as { deleted?: unknown };
    return typeof value.deleted === 'string' ? { deleted: value.deleted } : {};
  } catch {
    return {};
  }
}
