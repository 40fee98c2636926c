import { AppConfig } from '../../config/app-config';
import { ReadModel } from '../../common/cache/read-model';
import { newTestService } from '../../../test/support/new-test-service';
import { ChangesService } from '../changes.service';
import { decodeSyncToken } from '../sync-token';
import { DeliveryBodies } from './delivery-bodies';
import type { ClaimedDelivery } from './delivery-claims.repository';

// The bodies of a round's deliveries, built from the items as they are now: read together
// through the change feed's readers, after the read model caught up with other instances.

const delivery = (over: Partial<ClaimedDelivery>): ClaimedDelivery => ({
  id: 'd',
  webhookId: 3,
  type: 'event',
  itemId: 10,
  event: 'event.updated',
  seq: 41,
  known: '{}',
  attempts: 0,
  nextAttemptUtc: '2026-01-01 00:00:00.000',
  createdUtc: '2026-01-01 08:30:00.123',
  ...over,
});

function setup(items: Map<string, Buffer>) {
  const { sut, mocks } = newTestService(DeliveryBodies, [{ provide: AppConfig, useValue: { baseUrl: 'http://cal.test' } }]);
  const changes = mocks.get(ChangesService);
  changes.items.mockResolvedValue(items);
  changes.restPath.mockImplementation((type, id) => `/${type}s/${id}`);
  return { bodies: sut, changes, readModel: mocks.get(ReadModel) };
}

const json = (body: Uint8Array | undefined) => JSON.parse(Buffer.from(body!).toString('utf8')) as Record<string, unknown>;

describe('DeliveryBodies', () => {
  it('puts each item as its single GET answers into its delivery, read once for the round, after catching up', async () => {
    const { bodies, changes, readModel } = setup(new Map([['event:10', Buffer.from('{"id":10,"title":"Now"}')]]));
    const out = await bodies.of([delivery({ id: 'a' }), delivery({ id: 'b', seq: 42 })]);
    expect(readModel.catchUp).toHaveBeenCalledTimes(1);
    expect(changes.items).toHaveBeenCalledTimes(1);
    expect(changes.items).toHaveBeenCalledWith(null, [
      { type: 'event', id: 10 },
      { type: 'event', id: 10 },
    ]);
    const a = json(out.get('a'));
    expect(a).toEqual({
      id: 'a',
      event: 'event.updated',
      created_utc: '2026-01-01 08:30:00',
      sync_token: expect.any(String),
      data: { type: 'event', id: 10, rest_url: 'http://cal.test/calendar/events/v1/events/10', item: { id: 10, title: 'Now' } },
    });
    expect(decodeSyncToken(a.sync_token as string)).toBe(41);
  });

  it('says what a delete removed and reads no item for it; a ping names its subscription', async () => {
    const { bodies, changes } = setup(new Map());
    const out = await bodies.of([
      delivery({ id: 'gone', event: 'event.deleted', known: '{"deleted":"trash"}' }),
      delivery({ id: 'p', type: 'ping', event: 'ping', itemId: 0 }),
    ]);
    expect(changes.items).toHaveBeenCalledWith(null, []);
    expect(json(out.get('gone'))).toMatchObject({ data: { type: 'event', id: 10, deleted: 'trash' } });
    expect(json(out.get('gone')).data).not.toHaveProperty('item');
    expect(json(out.get('p'))).toEqual({ id: 'p', event: 'ping', created_utc: '2026-01-01 08:30:00', data: { webhook_id: 3 } });
  });
});
