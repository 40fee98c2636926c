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
