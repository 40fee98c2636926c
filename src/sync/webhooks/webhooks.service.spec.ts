import type { DataSource } from 'typeorm';
import type { Actor } from '../../common/auth';
import { refusal } from '../../common/errors/testing/refusal';
import type { AppConfig } from '../../config/app-config';
import type { UnitOfWork } from '../../database/unit-of-work';
import { isSealed, openSecret } from '../../common/crypto/secret-box';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';
import type { WebhookOutbox } from './webhook-outbox';
import { ChangeKinds } from '../../database/change-kinds';
import { FEATURES } from '../../features';

// The webhook routes' rules (sync.md, auth.md §2) without a database: fake
// repositories of subscriptions and deliveries, a unit of work whose transaction records what
// is written in it, and a fake outbox. Target URLs are IP literals, so no name is looked up.

const admin: Actor = { id: 1, login: 'ad', role: 'administrator' };
const editor: Actor = { id: 2, login: 'ed', role: 'editor' };
const KEY = Buffer.alloc(32, 7);
const PUBLIC_URL = 'https://8.8.8.8/hook';

const stored = (over: Partial<WebhookEntity> = {}): WebhookEntity =>
  ({ id: 4, url: PUBLIC_URL, events: '["event.created"]', secret: 'plain-secret', active: true, createdUtc: '2025-01-01 00:00:00', ...over }) as WebhookEntity;

function setup(rows: WebhookEntity[] = [], opts: { key?: Buffer; allowPrivate?: boolean } = {}) {
  const written: string[] = [];
  const tx = {
    create: (_entity: unknown, values: Partial<WebhookEntity>) => ({ ...values }),
    save: jest.fn(async (row: Partial<WebhookEntity>) => {
      written.push('save webhook');
      return { id: 9, ...row };
    }),
    delete: jest.fn(async (entity: unknown) => void written.push(entity === WebhookDeliveryEntity ? 'delete deliveries' : 'delete webhook')),
  };
  const unitOfWork = { runUnlogged: jest.fn(async (work: (t: typeof tx) => Promise<unknown>) => work(tx)) };
  const outbox = {
    changed: jest.fn(async (t: unknown) => void written.push(t === tx ? 'outbox changed in the write' : 'outbox changed elsewhere')),
    queued: jest.fn(),
  };
  const sealed = new Map<number, string>();
  const hooks = {
    find: jest.fn(async () => rows),
    findOneBy: jest.fn(async ({ id }: { id: number }) => rows.find((r) => r.id === id) ?? null),
    // The conditional UPDATE of sealStoredSecrets: it changes the row only while it holds what was read.
    createQueryBuilder: () => {
      let values: { secret: string } = { secret: '' };
      let where: { id: number; secret: string } = { id: 0, secret: '' };
      const qb = {
        update: () => qb,
        set: (v: { secret: string }) => ((values = v), qb),
        where: (_sql: string, w: { id: number; secret: string }) => ((where = w), qb),
        execute: async () => {
          const row = rows.find((r) => r.id === where.id && r.secret === where.secret);
          if (row) sealed.set(row.id, values.secret);
          return { affected: row ? 1 : 0 };
        },
      };
      return qb;
    },
  };
  const deliveries = {
    find: jest.fn(async () => [
      {
        id: 'd1',
        event: 'event.created',
        status: 'pending',
        attempts: 1,
        responseStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptUtc: '2025-01-01 10:00:00.123456',
      },
      {
        id: 'd2',
        event: 'event.updated',
        status: 'delivered',
        attempts: 1,
        responseStatus: 200,
        lastError: null,
        nextAttemptUtc: '2025-01-01 09:00:00.000000',
      },
    ]),
    create: (values: object) => values,
    insert: jest.fn(async () => undefined),
  };
  const db = {
    getRepository: (entity: unknown) => (entity === WebhookEntity ? hooks : deliveries),
    query: jest.fn(async () => rows.map((r) => ({ id: String(r.id), secret: r.secret }))),
  };
  const config = { webhookKey: opts.key, webhookAllowPrivate: opts.allowPrivate ?? false } as AppConfig;
  const service = new WebhooksService(
    new WebhooksRepository(db as unknown as DataSource),
    config,
    outbox as unknown as WebhookOutbox,
    unitOfWork as unknown as UnitOfWork,
    ChangeKinds.of(FEATURES),
  );
  return { service, written, tx, unitOfWork, outbox, db, hooks, deliveries, sealed };
}

describe('WebhooksService: administrators only (auth.md §2)', () => {
  it.each([
    ['anonymous', null, 401],
    ['an editor', editor, 403],
  ])('%s is refused every route before anything is read', async (_who, actor, status) => {
    const { service, hooks, deliveries, unitOfWork } = setup([stored()]);
    const calls = [
      service.create(actor, { url: PUBLIC_URL, events: ['event.created'] }),
      service.list(actor),
      service.get(actor, 4),
      service.update(actor, 4, { active: false }),
      service.remove(actor, 4),
      service.deliveryLog(actor, 4),
      service.ping(actor, 4),
    ];
    for (const call of calls) expect(await refusal(call)).toMatchObject({ status });
    expect([hooks.find, hooks.findOneBy, deliveries.find, unitOfWork.runUnlogged].filter((fn) => fn.mock.calls.length > 0)).toEqual([]);
  });
});

describe('WebhooksService writes (sync.md)', () => {
  it('create: refuses a private or non-http target before any write', async () => {
    const { service, unitOfWork } = setup();
    for (const url of ['http://127.0.0.1/hook', 'ftp://8.8.8.8/hook', 'not a url']) {
      expect(await refusal(service.create(admin, { url, events: ['event.created'] }))).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { url: expect.any(String) } },
      });
    }
    expect(unitOfWork.runUnlogged).not.toHaveBeenCalled();
    expect(await setup([], { allowPrivate: true }).service.create(admin, { url: 'http://127.0.0.1/hook', events: [] })).toMatchObject({ id: 9 });
  });

  it('create: makes a secret when none is given, answers it once, and tells the outbox in the same transaction', async () => {
    const { service, written } = setup();
    const created = await service.create(admin, { url: PUBLIC_URL, events: ['event.created'] });
    expect(created).toMatchObject({ id: 9, url: PUBLIC_URL, events: ['event.created'], active: true });
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(written).toEqual(['save webhook', 'outbox changed in the write']);
  });

  it('create: with CALENDAR_WEBHOOK_KEY the secret is stored sealed, and opens to what was answered', async () => {
    const { service, tx } = setup([], { key: KEY });
    const created = await service.create(admin, { url: PUBLIC_URL, events: [], secret: 's3cret' });
    const saved = tx.save.mock.calls[0][0] as WebhookEntity;
    expect(isSealed(saved.secret)).toBe(true);
    expect(openSecret(saved.secret, KEY)).toBe('s3cret');
    expect(created.secret).toBe('s3cret');
  });

  it('list and get never show a secret', async () => {
    const { service } = setup([stored()]);
    expect((await service.list(admin)).webhooks[0]).not.toHaveProperty('secret');
    expect(await service.get(admin, 4)).not.toHaveProperty('secret');
  });

  it('update: an unknown id is a 400 on `id`; only the given fields change', async () => {
    const { service, unitOfWork } = setup([stored()]);
    expect(await refusal(service.update(admin, 99, { active: false }))).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    });
    expect(unitOfWork.runUnlogged).not.toHaveBeenCalled();
    expect(await service.update(admin, 4, { active: false })).toEqual({
      id: 4,
      url: PUBLIC_URL,
      events: ['event.created'],
      active: false,
      created_utc: '2025-01-01 00:00:00',
    });
  });

  it('update: a new target is checked like a new subscription', async () => {
    const { service, unitOfWork } = setup([stored()]);
    expect(await refusal(service.update(admin, 4, { url: 'http://10.0.0.1/' }))).toMatchObject({ data: { params: { url: expect.any(String) } } });
    expect(unitOfWork.runUnlogged).not.toHaveBeenCalled();
  });

  it('remove: its deliveries, then the subscription, then the outbox, in one transaction; the answer shows what was removed', async () => {
    const { service, written, unitOfWork } = setup([stored()]);
    expect(await service.remove(admin, 4)).toMatchObject({ deleted: true, previous: { id: 4, url: PUBLIC_URL } });
    expect(unitOfWork.runUnlogged).toHaveBeenCalledTimes(1);
    expect(written).toEqual(['delete deliveries', 'delete webhook', 'outbox changed in the write']);
  });
});

describe('WebhooksService: deliveries', () => {
  it('the log shows the next attempt only of a pending delivery, to the second', async () => {
    const { service } = setup([stored()]);
    const { deliveries } = await service.deliveryLog(admin, 4);
    expect(deliveries.map((d) => d.next_attempt_utc)).toEqual(['2025-01-01 10:00:00', null]);
    expect(deliveries[0]).toMatchObject({ id: 'd1', response_status: 500, last_error: 'HTTP 500' });
  });

  it('ping queues a pending delivery and wakes the worker; an unknown id queues nothing', async () => {
    const { service, deliveries, outbox } = setup([stored()]);
    expect(await refusal(service.ping(admin, 99))).toMatchObject({ code: 'rest_invalid_param' });
    expect(deliveries.insert).not.toHaveBeenCalled();
    const queued = await service.ping(admin, 4);
    expect(queued).toMatchObject({ event: 'ping', status: 'pending' });
    expect(deliveries.insert).toHaveBeenCalledWith(expect.objectContaining({ id: queued.id, webhookId: 4, type: 'ping', status: 'pending' }));
    expect(outbox.queued).toHaveBeenCalledTimes(1);
  });
});

describe('WebhooksService.sealStoredSecrets (CALENDAR_WEBHOOK_KEY)', () => {
  it('does nothing without a key', async () => {
    const { service, db } = setup([stored()]);
    expect(await service.sealStoredSecrets()).toBe(0);
    expect(db.query).not.toHaveBeenCalled();
  });

  it('seals the secrets stored as given, leaves sealed ones, and counts only the rows it changed', async () => {
    const rows = [stored({ id: 1, secret: 'one' }), stored({ id: 2, secret: 'two' })];
    const { service, sealed } = setup(rows, { key: KEY });
    expect(await service.sealStoredSecrets()).toBe(2);
    expect(openSecret(sealed.get(1)!, KEY)).toBe('one');
    // The rows now hold sealed secrets: a second start seals nothing.
    rows.forEach((r) => (r.secret = sealed.get(r.id)!));
    expect(await service.sealStoredSecrets()).toBe(0);
  });

  it('a row another instance sealed meanwhile is not counted', async () => {
    const rows = [stored({ id: 1, secret: 'one' })];
    const { service, db } = setup(rows, { key: KEY });
    // Read as given; changed by someone else before this instance's UPDATE.
    db.query.mockImplementationOnce(async () => [{ id: '1', secret: 'one' }]);
    rows[0].secret = 'sealed elsewhere';
    expect(await service.sealStoredSecrets()).toBe(0);
  });
});
