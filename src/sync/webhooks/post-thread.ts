import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import type { PostChain, PostResult } from './delivery-post';
import { Batcher, PostAnswer, PostRequest, transferable } from './post-messages';

/** The thread's compiled entry; absent when the service runs from its TypeScript sources (the tests). */
export const POST_THREAD_ENTRY = join(__dirname, 'post-thread-main.js');

/**
 * The webhook worker's POSTs, on a worker thread of their own. The HTTP client's work for a
 * delivery (the request, the socket writes, reading the answer) and its signature cost the
 * thread that serves the requests about as much as presenting the item: moved here, they take
 * a core the writes do not use. The thread holds nothing but the HTTP client (no application,
 * no database), so it costs a few MB. The worker keeps everything else: claims, order,
 * outcomes. If the thread dies, the attempts it held fail (and are retried, as any failed
 * attempt); the next POST starts a new thread.
 */
export class PostThread {
  private worker: Worker | null = null;
  private outgoing: Batcher<PostRequest> | null = null;
  private next = 0;
  private readonly pending = new Map<number, (results: PostResult[]) => void>();
  private closing = false;

  constructor(
    private readonly logger: Logger,
    private readonly entry = POST_THREAD_ENTRY,
  ) {}

  /** Can a post thread run here (the built service)? */
  static available(entry = POST_THREAD_ENTRY): boolean {
    return existsSync(entry);
  }

  /**
   * Signs and POSTs a chain's deliveries on the thread, one after another until one fails
   * (postChain): the attempts made. A chain is one message each way, however long.
   */
  post(chain: PostChain): Promise<PostResult[]> {
    if (this.closing) return Promise.resolve([{ status: null, error: 'the service is stopping' }]);
    const outgoing = this.outgoing ?? this.start();
    const id = ++this.next;
    return new Promise<PostResult[]>((resolve) => {
      this.pending.set(id, resolve);
      outgoing.push({ id, chain });
    });
  }

  private start(): Batcher<PostRequest> {
    // Its young generation small: it holds a round's requests at a time.
    const worker = new Worker(this.entry, { resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 } });
    worker.unref();
    // The bodies move to the thread (each has memory of its own, see deliveryBody): no copy.
    const outgoing = new Batcher<PostRequest>((requests) => worker.postMessage(requests, transferable(requests)));
    worker.on('message', (answers: PostAnswer[]) => {
      for (const m of answers) {
        const resolve = this.pending.get(m.id);
        this.pending.delete(m.id);
        resolve?.(m.results);
      }
    });
    worker.on('error', (err) => this.logger.error(`webhook post thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = null;
        this.outgoing = null;
      }
      if (!this.closing) this.logger.error(`webhook post thread exited (${code}); a new one takes the next delivery`);
      // What it held failed (a chain at its first delivery, which may have been sent already: at
      // least once); the worker retries those attempts as any other failure.
      for (const [id, resolve] of this.pending) {
        this.pending.delete(id);
        resolve([{ status: null, error: 'the delivery thread exited before an answer' }]);
      }
    });
    this.worker = worker;
    this.outgoing = outgoing;
    return outgoing;
  }

  /** Ends the thread (after the worker's last round). */
  async close(): Promise<void> {
    this.closing = true;
    await this.worker?.terminate();
    this.worker = null;
    this.outgoing = null;
  }
}
