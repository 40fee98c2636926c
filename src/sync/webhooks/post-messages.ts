import type { PostChain, PostResult } from './delivery-post';

// What the webhook worker and its post thread (post-thread.ts) send each other. Nothing here
// loads more than the thread needs: it holds the HTTP client only.

/**
 * A chain of deliveries handed to the post thread, and its answer: the attempts made (see
 * postChain). Both cross in batches: one message per turn of the event loop.
 */
export interface PostRequest {
  id: number;
  chain: PostChain;
}
export interface PostAnswer {
  id: number;
  results: PostResult[];
}

/**
 * Collects what one side sends the other during a turn of the event loop and sends it as one
 * message: each message has a fixed cost on both threads (serialising it, waking the other
 * side), and a round's chains ask, and are answered, together.
 */
export class Batcher<T> {
  private items: T[] = [];

  constructor(private readonly send: (items: T[]) => void) {}

  push(item: T): void {
    if (this.items.length === 0) setImmediate(() => this.flush());
    this.items.push(item);
  }

  private flush(): void {
    const items = this.items;
    this.items = [];
    if (items.length > 0) this.send(items);
  }
}

const utf8 = new TextEncoder();

/**
 * A delivery's body (sync.md) as UTF-8 JSON, in one exact-size array of its own:
 * `{...head, "data": {...data, "item": <item>}}`, with `item` (JSON text the item's GET sends)
 * put in as it is, or `{...head, "data": data}` without one. Built with one allocation and one
 * copy of the item, where nesting two `jsonWithRaw` and copying the result cost four; and since
 * the array owns its memory, it can be moved to the post thread instead of copied (transferable).
 * `head` and `data` have at least one member each.
 */
export function deliveryBody(head: Record<string, unknown>, data: Record<string, unknown>, item?: Uint8Array): Uint8Array {
  if (item === undefined) return ownUtf8(JSON.stringify({ ...head, data }));
  const prefix = `${JSON.stringify(head).slice(0, -1)},"data":${JSON.stringify(data).slice(0, -1)},"item":`;
  const start = Buffer.byteLength(prefix);
  const out = new Uint8Array(start + item.length + 2);
  utf8.encodeInto(prefix, out);
  out.set(item, start);
  out[out.length - 2] = CLOSE_BRACE;
  out[out.length - 1] = CLOSE_BRACE;
  return out;
}

const CLOSE_BRACE = 0x7d;

/** `text` as UTF-8 in an array of its own (a small Buffer would be a view of a shared pool). */
function ownUtf8(text: string): Uint8Array {
  const out = new Uint8Array(Buffer.byteLength(text));
  utf8.encodeInto(text, out);
  return out;
}

/**
 * The memory of the requests' bodies that can move to the post thread without a copy: each
 * body's ArrayBuffer when the body is the whole of it (deliveryBody's arrays), once each. A view
 * of a larger buffer (a pooled Buffer) is left to be copied: moving it would take the rest of
 * that memory from this thread. After the message, the moved bodies are empty here.
 */
export function transferable(requests: readonly PostRequest[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const { chain } of requests) {
    for (const { body } of chain.items) {
      if (typeof body === 'string' || !(body.buffer instanceof ArrayBuffer)) continue;
      if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) out.add(body.buffer);
    }
  }
  return [...out];
}
