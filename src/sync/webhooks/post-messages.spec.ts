import { MessageChannel } from 'node:worker_threads';
import { Batcher, deliveryBody, PostRequest, transferable } from './post-messages';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('sends what was pushed during one turn of the event loop as one batch, in order', async () => {
    const sent: number[][] = [];
    const batcher = new Batcher<number>((items) => sent.push(items));
    batcher.push(1);
    batcher.push(2);
    await Promise.resolve();
    batcher.push(3); // a microtask later: still the same turn
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([[1, 2, 3]]);
  });

  it('starts a new batch in the next turn, and sends nothing when nothing was pushed', async () => {
    const sent: string[][] = [];
    const batcher = new Batcher<string>((items) => sent.push(items));
    batcher.push('a');
    await turn();
    await turn();
    batcher.push('b');
    batcher.push('c');
    await turn();
    expect(sent).toEqual([['a'], ['b', 'c']]);
  });
});

describe('deliveryBody', () => {
  const head = { id: '0190-…', event: 'event.updated', created_utc: '2026-11-26 20:00:00', sync_token: 'tök' };
  const data = { type: 'event', id: 57, rest_url: 'https://example.org/wp-json/calendar/events/v1/events/57?a="b"' };
  const item = { id: 57, title: 'Fête « été » 🎉', description: '<p>a\u2028b</p>', cost: '€10', nested: { list: [1, 'two', null] } };
  const parsed = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;

  it('puts the item text into data as it is, after the other members, as valid UTF-8 JSON', () => {
    const raw = Buffer.from(JSON.stringify(item));
    const body = deliveryBody(head, data, raw);
    expect(parsed(body)).toEqual({ ...head, data: { ...data, item } });
    // The exact text: what serialising the whole would give, members in order.
    expect(Buffer.from(body).toString('utf8')).toBe(JSON.stringify({ ...head, data: { ...data, item } }));
  });

  it('copies the item text byte for byte, not re-serialised', () => {
    const raw = Buffer.from('{"id": 57,  "t":"\\u00e9"}');
    expect(
      Buffer.from(deliveryBody(head, data, raw))
        .toString('utf8')
        .endsWith(`,"item":${raw.toString('utf8')}}}`),
    ).toBe(true);
  });

  it('without an item is the JSON of head with data', () => {
    const deleted = { ...data, deleted: 'trash' };
    expect(Buffer.from(deliveryBody(head, deleted)).toString('utf8')).toBe(JSON.stringify({ ...head, data: deleted }));
  });

  it('owns its memory, so that it can move to the post thread', () => {
    for (const body of [deliveryBody(head, data, Buffer.from('{}')), deliveryBody(head, data)]) {
      expect(body.byteOffset).toBe(0);
      expect(body.byteLength).toBe(body.buffer.byteLength);
    }
  });
});

describe('transferable', () => {
  const request = (id: number, bodies: (string | Uint8Array)[]): PostRequest => ({
    id,
    chain: {
      target: { url: 'http://example.org/', secret: 's', allowPrivate: false, timeoutMs: 1000 },
      items: bodies.map((body, i) => ({ body, event: 'event.updated', deliveryId: `${id}-${i}` })),
    },
  });

  it('moves the bodies that own their memory, once each, and leaves views of shared memory and strings to be copied', () => {
    const own = deliveryBody({ id: 'a' }, { type: 'event' });
    const other = deliveryBody({ id: 'b' }, { type: 'event' });
    const pooled = Buffer.from('{"small":"pooled"}'); // a view of Buffer's shared pool
    const slice = new Uint8Array(new ArrayBuffer(64), 8, 16);
    const list = transferable([request(1, [own, pooled, 'text']), request(2, [other, own, slice])]);
    expect(list).toHaveLength(2);
    expect(list).toContain(own.buffer);
    expect(list).toContain(other.buffer);
    expect(list).not.toContain(pooled.buffer);
    expect(list).not.toContain(slice.buffer);
  });

  it('hands over what it lists: after a message, the moved body is empty here and whole on the other side', async () => {
    const body = deliveryBody({ id: 'x' }, { type: 'venue' }, Buffer.from('{"id":1}'));
    const text = Buffer.from(body).toString('utf8');
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<PostRequest[]>((resolve) => port2.once('message', resolve));
    const requests = [request(1, [body])];
    port1.postMessage(requests, transferable(requests));
    const [received] = await got;
    expect(body.byteLength).toBe(0);
    expect(Buffer.from(received.chain.items[0].body as Uint8Array).toString('utf8')).toBe(text);
    port1.close();
    port2.close();
  });
});
