// Webhooks with two service instances on one database (sync.md "Webhooks"):
// both instances' workers take deliveries from the one outbox, each delivery is sent by one of
// them at a time (leases), so the receiver gets each once per attempt; and the deliveries of one
// item keep their order, also while an older one is being retried.
import { DataVersion } from '../../../src/common/cache/data-version.service';
import { createEvent, makeUsers, updateEvent } from '../../support/api';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import type { TestApp } from '../../support/test-app';
import { Received, WebhookReceiver } from '../../support/webhook-receiver';

const FAST = {
  CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on',
  CALENDAR_WEBHOOK_RETRY_BASE_SECONDS: '0.05',
  CALENDAR_WEBHOOK_MAX_ATTEMPTS: '5',
  CALENDAR_WEBHOOK_LEASE_SECONDS: '5',
};

type LogEntry = { id: string; event: string; status: string; attempts: number };

/** The events one item's deliveries named, in the order the receiver got them. */
const eventsOf = (got: Received[], id: number) => got.filter((r) => r.body.data.id === id).map((r) => r.body.event);

describe('webhooks with two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  let admin: string;
  let receiver: WebhookReceiver;
  let target: string;

  beforeAll(async () => {
    ({ a, b, close } = await twoInstances(FAST));
    admin = (await makeUsers(a)).admin.authorization;
  });
  afterAll(async () => close());
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    target = await receiver.start();
  });
  afterEach(async () => {
    const list = await http(a, admin).get(`${API}/webhooks`);
    for (const w of list.body.webhooks as { id: number }[]) await http(a, admin).delete(`${API}/webhooks/${w.id}`).expect(200);
    await receiver.stop();
  });

  it('each delivery arrives once per attempt, whichever instance sends it, in order per item', async () => {
    const hook = (
      await http(a, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['event.*'] })
    ).body;
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const via = i % 2 === 0 ? a : b; // writes through both instances
      const event = await createEvent(via, admin, { title: `Two instances ${i}` });
      await updateEvent(via === a ? b : a, admin, event.id, { title: `Two instances ${i}, renamed` });
      await updateEvent(via, admin, event.id, { excerpt: `twice ${i}` });
      ids.push(event.id);
    }
    const got = await receiver.until((all) => all.length >= 18);
    const log = async () => (await http(b, admin).get(`${API}/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as LogEntry[];
    // Every delivery delivered at its first attempt, and nothing more arrives after (a second sender would show here).
    await receiver.until(() => false, 1500).catch(() => undefined);
    expect(receiver.received).toHaveLength(18);
    expect(new Set(got.map((r) => r.body.id)).size).toBe(18);
    const entries = await log();
    expect(entries).toHaveLength(18);
    expect(entries.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    for (const id of ids) expect(eventsOf(receiver.received, id)).toEqual(['event.created', 'event.updated', 'event.updated']);
  });

  it('a newer delivery of an item waits while an older one is being retried', async () => {
    await http(a, admin)
      .post(`${API}/webhooks`)
      .send({ url: target, events: ['event.*'] });
    let failures = 0;
    // The item's first delivery fails twice; the receiver records every attempt.
    receiver.answer = (r) => (r.body.event === 'event.created' && failures++ < 2 ? 500 : 200);
    const event = await createEvent(a, admin, { title: 'Retried first' });
    await updateEvent(b, admin, event.id, { title: 'Retried first, renamed' });
    await updateEvent(a, admin, event.id, { excerpt: 'and again' });
    await receiver.until((all) => all.filter((r) => r.body.data.id === event.id).length >= 5);
    // Attempts: created (500), created (500), created (200), then the updates, never before.
    expect(eventsOf(receiver.received, event.id)).toEqual(['event.created', 'event.created', 'event.created', 'event.updated', 'event.updated']);
    const first = receiver.received.filter((r) => r.body.event === 'event.created');
    expect(new Set(first.map((r) => r.body.id)).size).toBe(1); // the same delivery each time
  });
});

/** Two instances for a describe block (twoInstances), an administrator's header and a receiver, all torn down after the block. */
function instancesForBlock(env: Record<string, string>, only: Parameters<typeof twoInstances>[1] = {}) {
  const s = {} as { a: TestApp; b: TestApp; close: () => Promise<void>; admin: string; receiver: WebhookReceiver };
  beforeAll(async () => {
    Object.assign(s, await twoInstances(env, only));
    s.admin = (await makeUsers(s.a)).admin.authorization;
    s.receiver = new WebhookReceiver();
  });
  afterAll(async () => {
    await s.receiver.stop();
    await s.close();
  });
  return s;
}

describe('webhooks with one instance taking requests and another sending (CALENDAR_WEBHOOK_WORKER=off on the first)', () => {
  const s = instancesForBlock({ ...FAST, CALENDAR_METRICS: 'on' }, { a: { CALENDAR_WEBHOOK_WORKER: 'off' } });

  /** An instance's count of delivery attempts by outcome, from its /metrics. */
  const sent = async (app: TestApp) => {
    const text = (await http(app).get('/metrics').expect(200)).text;
    return [...text.matchAll(/^calendar_webhook_deliveries_total\{outcome="(\w+)"\} (\d+)/gm)].reduce((n, m) => n + Number(m[2]), 0);
  };

  it("a subscription made through A takes B's very next write; A's writes are sent by B, A sends nothing", async () => {
    const { a, b, admin, receiver } = s;
    const target = await receiver.start();
    // B writes first, so it holds the subscriptions (none) in memory.
    await createEvent(b, admin, { title: 'Before any subscription' });
    // Made through A, then a write through B at once: B reads the subscriptions again in that write.
    await http(a, admin)
      .post(`${API}/webhooks`)
      .send({ url: target, events: ['event.created'] })
      .expect(201);
    const viaB = await createEvent(b, admin, { title: 'Written through B' });
    const viaA = await createEvent(a, admin, { title: 'Written through A' });
    const got = await receiver.until((all) => all.length >= 2);
    expect(got.map((r) => Number(r.body.data.id)).sort((x, y) => x - y)).toEqual([viaB.id, viaA.id].sort((x, y) => x - y));
    // B counts a delivery once it has read the receiver's answer, which can be after the receiver
    // has the request: wait for B's count, then A's must still be nothing.
    const deadline = Date.now() + 10_000;
    while ((await sent(b)) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await sent(b)).toBe(2);
    expect(await sent(a)).toBe(0);
  });

  it("B sends the item as A's write left it, though B's caches have not seen that write yet", async () => {
    const { a, b, admin } = s;
    const hooks = new WebhookReceiver();
    const target = await hooks.start();
    const intervals = b.app.get(DataVersion).intervals;
    const saved = { ...intervals };
    try {
      await http(a, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['event.updated'] })
        .expect(201);
      const event = await createEvent(a, admin, { title: 'Old title' });
      // B's poll of the change log would notice A's next write only in an hour; its cache of
      // anonymous single GETs now holds the old title.
      Object.assign(intervals, { pushed: 3_600_000, polled: 3_600_000 });
      await http(b).get(`${API}/events/${event.id}`).expect(200);
      await updateEvent(a, admin, event.id, { title: 'New title' });
      const [got] = await hooks.until((all) => all.some((r) => r.body.data.id === event.id));
      expect(got.body.event).toBe('event.updated');
      expect(got.body.data.item?.title).toBe('New title');
    } finally {
      Object.assign(intervals, saved);
      await hooks.stop();
    }
  });
});

describe('webhooks with two instances and a lease shorter than a slow receiver', () => {
  // A one-second lease: the instance sending holds it by renewing it, however long the receiver takes.
  const s = instancesForBlock({ ...FAST, CALENDAR_WEBHOOK_LEASE_SECONDS: '1' });

  it('a delivery the receiver answers after several leases is sent once, not again by the other instance', async () => {
    const { a, b, admin, receiver } = s;
    const target = await receiver.start();
    const hook = (
      await http(a, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['event.created'] })
        .expect(201)
    ).body as { id: number };
    // The first POST is answered 200 after 4 s (four leases); any other at once.
    receiver.answer = (_r, nth) => (nth === 1 ? new Promise((resolve) => setTimeout(() => resolve(200), 4000)) : 200);
    await createEvent(b, admin, { title: 'Slowly received' });
    const log = async () => (await http(a, admin).get(`${API}/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as LogEntry[];
    for (let i = 0; i < 200 && !(await log()).some((d) => d.status === 'delivered'); i++) await new Promise((r) => setTimeout(r, 100));
    const [entry] = await log();
    expect(entry).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(receiver.received.map((r) => r.body.id)).toEqual([entry.id]);
  }, 60_000);
});
