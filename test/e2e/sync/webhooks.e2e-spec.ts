import { DataSource } from 'typeorm';
import { decodeSyncToken } from '../../../src/sync/sync-token';
import { sealSecret } from '../../../src/common/crypto/secret-box';
import { WebhookWorker } from '../../../src/sync/webhooks/webhook-worker';
import { WebhooksService } from '../../../src/sync/webhooks/webhooks.service';
import { Caller, createEvent, makeUsers, trashEvent, updateEvent } from '../../support/api';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';
import { signatureValid, WebhookReceiver } from '../../support/webhook-receiver';

type LogEntry = { id: string; event: string; status: string; attempts: number; response_status: number | null };

const FAST = {
  CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on',
  CALENDAR_WEBHOOK_RETRY_BASE_SECONDS: '0.05',
  CALENDAR_WEBHOOK_MAX_ATTEMPTS: '3',
};

describe('webhooks (sync.md)', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let receiver: WebhookReceiver;
  let target: string;

  beforeAll(async () => {
    t = await createTestApp(FAST);
    users = await makeUsers(t);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    target = await receiver.start();
  });
  afterEach(async () => {
    // No subscription outlives its test: the next test's receiver sees only its own deliveries.
    const list = await http(t, users.admin.authorization).get(`${API}/webhooks`);
    for (const w of list.body.webhooks as { id: number }[]) await http(t, users.admin.authorization).delete(`${API}/webhooks/${w.id}`).expect(200);
    await receiver.stop();
  });

  const subscribe = async (as: Caller, body: Record<string, unknown>) => http(t, as.authorization).post(`${API}/webhooks`).send(body);

  it('are for administrators only: 401 anonymous, 403 editor, rest_forbidden', async () => {
    const anon = await http(t)
      .post(`${API}/webhooks`)
      .send({ url: target, events: ['*'] });
    expect([anon.status, anon.body.code]).toEqual([401, 'rest_forbidden']);
    const editor = await subscribe(users.editor, { url: target, events: ['*'] });
    expect([editor.status, editor.body.code]).toEqual([403, 'rest_forbidden']);
    const list = await http(t, users.editor.authorization).get(`${API}/webhooks`);
    expect([list.status, list.body.code]).toEqual([403, 'rest_forbidden']);
    expect((await http(t).get(`${API}/webhooks`)).status).toBe(401);
  });

  it('show the secret only in the create answer; validate url and events', async () => {
    const made = await subscribe(users.admin, { url: target, events: ['event.*'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ url: target, events: ['event.*'], active: true });
    expect(made.body.secret).toMatch(/^[0-9a-f]{64}$/);
    const read = await http(t, users.admin.authorization).get(`${API}/webhooks/${made.body.id}`).expect(200);
    expect(read.body.secret).toBeUndefined();
    const listed = await http(t, users.admin.authorization).get(`${API}/webhooks`).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);

    const given = await subscribe(users.admin, { url: target, events: ['*'], secret: 'my-secret' });
    expect(given.body.secret).toBe('my-secret');

    const badEvents = await subscribe(users.admin, { url: target, events: ['event.exploded'] });
    expect([badEvents.status, badEvents.body.code, Object.keys(badEvents.body.data.params)]).toEqual([400, 'rest_invalid_param', ['events']]);
    const badUrl = await subscribe(users.admin, { url: 'ftp://example.org/x', events: ['*'] });
    expect([badUrl.status, Object.keys(badUrl.body.data.params)]).toEqual([400, ['url']]);
    const missing = await subscribe(users.admin, {});
    expect([missing.status, missing.body.code]).toEqual([400, 'rest_missing_callback_param']);

    const paused = await http(t, users.admin.authorization).patch(`${API}/webhooks/${made.body.id}`).send({ active: false }).expect(200);
    expect(paused.body.active).toBe(false);
  });

  it('deliver signed, ordered changes of an event: created, updated, deleted (trash and permanent)', async () => {
    const hook = (await subscribe(users.admin, { url: target, events: ['event.*'] })).body;
    const event = await createEvent(t, users.admin.authorization, { status: 'publish' });
    await updateEvent(t, users.admin.authorization, event.id, { title: 'Renamed' });
    await trashEvent(t, users.admin.authorization, event.id);
    await http(t, users.admin.authorization).delete(`${API}/events/${event.id}?force=true`).expect(200);

    const got = await receiver.until((all) => all.length >= 4);
    expect(got.map((r) => r.body.event)).toEqual(['event.created', 'event.updated', 'event.deleted', 'event.deleted']);
    for (const r of got) {
      expect(signatureValid(hook.secret, r)).toBe(true);
      expect(signatureValid('wrong', r)).toBe(false);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^calendar-events\/\d+\.\d+\.\d+/);
      expect(r.headers['x-calendar-event']).toBe(r.body.event);
      expect(r.headers['x-calendar-delivery']).toBe(r.body.id);
      expect(r.headers['x-calendar-timestamp']).toMatch(/^\d{10}$/);
      expect(r.body.data).toMatchObject({ type: 'event', id: event.id });
      // Our namespace, also when the write came by the WordPress path (docs/webhooks.md).
      expect(r.body.data.rest_url).toBe(`${t.baseUrl}/calendar/events/v1/events/${event.id}`);
      expect(typeof r.body.sync_token).toBe('string');
    }
    expect(new Set(got.map((r) => r.body.id)).size).toBe(4);
    // A delete says which kind it was, and carries no item.
    expect(got[2].body.data).toMatchObject({ deleted: 'trash' });
    expect(got[3].body.data).toMatchObject({ deleted: 'permanent' });
    expect(got[2].body.data.item).toBeUndefined();

    // The worker marks a delivery once it has read the receiver's answer, which can be after the
    // receiver holds the request: wait until none of the four is still pending, then judge them.
    const log = await waitForLog(hook.id, (d) => d.length === 4 && d.every((x) => x.status !== 'pending'));
    expect(log.map((d) => [d.status, d.attempts])).toEqual(Array(4).fill(['delivered', 1]));
  });

  it('send an item that changes write after write as fast as it changes: its pending deliveries leave in one round, one at a time, in seq order', async () => {
    await subscribe(users.admin, { url: target, events: ['event.*'] });
    // The receiver holds the first two deliveries until the test lets them go, and counts what is in flight.
    const gates = [0, 1].map(() => {
      let open!: () => void;
      return { opened: new Promise<void>((resolve) => (open = resolve)), open };
    });
    let inFlight = 0;
    let mostInFlight = 0;
    receiver.answer = async (_r, nth) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      if (nth <= 2) await gates[nth - 1].opened;
      inFlight--;
      return 200;
    };
    const event = await createEvent(t, users.admin.authorization, { status: 'publish' });
    await receiver.until((all) => all.length >= 1); // event.created, held: the worker's round waits for it
    for (let i = 0; i < 7; i++) await updateEvent(t, users.admin.authorization, event.id, { title: `Edit ${i}` });
    gates[0].open();
    await receiver.until((all) => all.length >= 2); // the first update, held
    // The round that sent it took every update of the event at once, not one per round.
    const leased = (await t.app
      .get(DataSource)
      .query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE item_id = ? AND status = 'pending' AND leased_by IS NOT NULL", [event.id])) as {
      n: number | string;
    }[];
    expect(Number(leased[0].n)).toBe(7);
    gates[1].open();
    const got = await receiver.until((all) => all.length >= 8);
    expect(got.map((r) => r.body.event)).toEqual(['event.created', ...Array(7).fill('event.updated')]);
    const seqs = got.map((r) => decodeSyncToken(r.body.sync_token!)!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(mostInFlight).toBe(1); // never two of the item at once
  });

  it('carry the public item in data.item, and only the events subscribed to', async () => {
    await subscribe(users.admin, { url: target, events: ['event.created'] });
    const event = await createEvent(t, users.admin.authorization, { status: 'publish', title: 'Public one' });
    const draft = await createEvent(t, users.admin.authorization, { status: 'draft' });
    await updateEvent(t, users.admin.authorization, event.id, { title: 'Not sent' });
    const marker = await createEvent(t, users.admin.authorization, { status: 'publish' });
    const got = await receiver.until((all) => all.length >= 3);
    // Different items go out in parallel (sync.md), so in any order; the update is not among them.
    expect(got.map((r) => [r.body.event, r.body.data.id]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['event.created', event.id],
      ['event.created', draft.id],
      ['event.created', marker.id],
    ]);
    const of = (id: number) => got.find((r) => r.body.data.id === id)!.body.data;
    expect(of(event.id).item).toMatchObject({ id: event.id });
    expect(of(draft.id).item).toBeUndefined();
  });

  it('retry after 500s with the same delivery id, then mark delivered; fail after the last attempt', async () => {
    const hook = (await subscribe(users.admin, { url: target, events: ['venue.created'] })).body;
    receiver.answer = (_r, nth) => (nth <= 2 ? 500 : 200);
    await http(t, users.admin.authorization).post(`${API}/venues`).send({ venue: 'Retry hall' }).expect(201);
    const got = await receiver.until((all) => all.length >= 3);
    expect(new Set(got.map((r) => r.body.id)).size).toBe(1);
    const log = await waitForLog(hook.id, (d) => d[0]?.status === 'delivered');
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200 });

    receiver.answer = () => 500;
    const ping = await http(t, users.admin.authorization).post(`${API}/webhooks/${hook.id}/ping`).expect(202);
    const failed = await waitForLog(hook.id, (d) => d.find((x) => x.id === ping.body.id)?.status === 'failed');
    expect(failed.find((x) => x.id === ping.body.id)).toMatchObject({ event: 'ping', status: 'failed', attempts: 3, response_status: 500 });
    expect(receiver.received.filter((r) => r.body.id === ping.body.id)).toHaveLength(3);
  });

  it('keep ended deliveries for CALENDAR_SYNC_RETENTION_DAYS: older delivered ones are removed, pending ones stay', async () => {
    const hook = (await subscribe(users.admin, { url: target, events: ['venue.created'] })).body;
    await http(t, users.admin.authorization).post(`${API}/venues`).send({ venue: 'Kept a while' }).expect(201);
    const [delivered] = await waitForLog(hook.id, (d) => d[0]?.status === 'delivered');
    // Paused: its ping stays pending.
    await http(t, users.admin.authorization).post(`${API}/webhooks/${hook.id}`).send({ active: false }).expect(200);
    const ping = await http(t, users.admin.authorization).post(`${API}/webhooks/${hook.id}/ping`).expect(202);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE webhook_deliveries SET created_utc = '2001-01-01 00:00:00.000' WHERE webhook_id = ?", [hook.id]);
    // The purge runs at most once an hour per instance: asked as if two hours had passed.
    expect(await t.app.get(WebhookWorker).purgeWhenDue(Date.now() + 2 * 3600 * 1000)).toBeGreaterThanOrEqual(1);
    const log = (await http(t, users.admin.authorization).get(`${API}/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries as LogEntry[];
    expect(log.map((d) => [d.id, d.status])).toEqual([[ping.body.id, 'pending']]);
    expect(log.some((d) => d.id === delivered.id)).toBe(false);
  });

  it('ping delivers a signed ping', async () => {
    const hook = (await subscribe(users.admin, { url: target, events: ['tag.*'] })).body;
    const ping = await http(t, users.admin.authorization).post(`${API}/webhooks/${hook.id}/ping`).expect(202);
    const [got] = await receiver.until((all) => all.length >= 1);
    expect(got.body).toMatchObject({ id: ping.body.id, event: 'ping', data: { webhook_id: hook.id } });
    expect(signatureValid(hook.secret, got)).toBe(true);
  });

  async function waitForLog(id: number, test: (d: LogEntry[]) => boolean): Promise<LogEntry[]> {
    for (let i = 0; i < 200; i++) {
      const log = await http(t, users.admin.authorization).get(`${API}/webhooks/${id}/deliveries`).expect(200);
      if (test(log.body.deliveries)) return log.body.deliveries;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('delivery log never reached the expected state');
  }
});

describe('webhooks without CALENDAR_WEBHOOK_ALLOW_PRIVATE', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(async () => t.close());

  it.each(['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://localhost/x'])('refuse %s', async (url) => {
    const admin = await t.userHeader(`admin${Math.random().toString(36).slice(2, 8)}`, 'administrator');
    const res = await http(t, admin.authorization)
      .post(`${API}/webhooks`)
      .send({ url, events: ['*'] });
    expect([res.status, res.body.code, Object.keys(res.body.data.params)]).toEqual([400, 'rest_invalid_param', ['url']]);
  });

  // A name that does not resolve is said as such, not as a private address.
  // `.invalid` is reserved (RFC 2606, RFC 6761): it never resolves, online or offline.
  it('say that a host name does not resolve; keep the private-address message for private addresses', async () => {
    const admin = await t.userHeader('resolve-admin', 'administrator');
    const subscribe = (url: string) =>
      http(t, admin.authorization)
        .post(`${API}/webhooks`)
        .send({ url, events: ['*'] });
    const unresolved = await subscribe('https://hooks.calendar-example.invalid/receive');
    expect(unresolved.status).toBe(400);
    expect(unresolved.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Some parameters are not valid: url.',
      data: {
        status: 400,
        params: { url: expect.stringMatching(/^The host name hooks\.calendar-example\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\)/) },
        details: {},
      },
    });
    const nothingMade = await http(t, admin.authorization).get(`${API}/webhooks`).expect(200);
    expect(nothingMade.body.webhooks).toEqual([]);
    const literal = await subscribe('http://10.1.2.3/x');
    expect(literal.body.data.params).toEqual({ url: 'Must be an http or https URL of a public address.' });
    const named = await subscribe('http://localhost/x');
    expect(named.body.data.params).toEqual({ url: 'Must be an http or https URL of a public address.' });
  });
});

describe('webhook secrets with CALENDAR_WEBHOOK_KEY (docs/security.md)', () => {
  const KEY = 'a1'.repeat(32);
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  let target: string;
  const stored = async (id: number) =>
    ((await t.app.get(DataSource).query('SELECT secret FROM webhooks WHERE id = ?', [id])) as { secret: string }[])[0].secret;

  beforeAll(async () => {
    t = await createTestApp({ ...FAST, CALENDAR_WEBHOOK_KEY: KEY });
    admin = (await t.userHeader('key-admin', 'administrator')).authorization;
    receiver = new WebhookReceiver();
    target = await receiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('are stored encrypted, never as given, and deliveries are still signed with them', async () => {
    const hook = (
      await http(t, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['tag.created'], secret: 'given-secret-0123' })
        .expect(201)
    ).body;
    expect(hook.secret).toBe('given-secret-0123');
    const atRest = await stored(hook.id);
    expect(atRest).toMatch(/^enc1:/);
    expect(atRest).not.toContain('given-secret');
    await http(t, admin).post(`${API}/tags`).send({ name: 'keyed tag' }).expect(201);
    const [got] = await receiver.until((all) => all.length >= 1);
    expect(signatureValid('given-secret-0123', got)).toBe(true);
    // A new secret given later is stored encrypted too.
    await http(t, admin).post(`${API}/webhooks/${hook.id}`).send({ secret: 'rotated-secret-4567' }).expect(200);
    expect(await stored(hook.id)).not.toContain('rotated');
  });

  it('a secret stored before the key was set is encrypted at start, and read either way until then', async () => {
    const hook = (
      await http(t, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['venue.created'], secret: 'older-secret-89' })
        .expect(201)
    ).body;
    await t.app.get(DataSource).query('UPDATE webhooks SET secret = ? WHERE id = ?', ['older-secret-89', hook.id]); // as stored without a key
    await http(t, admin).post(`${API}/venues`).send({ venue: 'Keyed hall' }).expect(201);
    const got = await receiver.until((all) => all.some((r) => r.body.event === 'venue.created'));
    expect(
      signatureValid(
        'older-secret-89',
        got.find((r) => r.body.event === 'venue.created')!,
      ),
    ).toBe(true);
    expect(await t.app.get(WebhooksService).sealStoredSecrets()).toBe(1);
    expect(await stored(hook.id)).toMatch(/^enc1:/);
    expect(await t.app.get(WebhooksService).sealStoredSecrets()).toBe(0);
  });

  it('encrypted with another key, a secret is not used: the delivery is not sent unsigned, it fails saying why', async () => {
    const hook = (
      await http(t, admin)
        .post(`${API}/webhooks`)
        .send({ url: target, events: ['organizer.created'] })
        .expect(201)
    ).body;
    // As another instance with another CALENDAR_WEBHOOK_KEY would have stored it.
    await t.app.get(DataSource).query('UPDATE webhooks SET secret = ? WHERE id = ?', [sealSecret('elsewhere', Buffer.from('b2'.repeat(32), 'hex')), hook.id]);
    const before = receiver.received.length;
    await http(t, admin).post(`${API}/organizers`).send({ organizer: 'Keyed host' }).expect(201);
    let log: (LogEntry & { last_error: string | null })[] = [];
    for (let i = 0; i < 200 && !log[0]?.last_error; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      log = (await http(t, admin).get(`${API}/webhooks/${hook.id}/deliveries`).expect(200)).body.deliveries;
    }
    expect(log[0]).toMatchObject({ event: 'organizer.created', response_status: null, last_error: expect.stringMatching(/CALENDAR_WEBHOOK_KEY/) });
    expect(receiver.received.slice(before).some((r) => r.body.event === 'organizer.created')).toBe(false);
  });
});
