// The webhook post thread's entry (post-thread.ts starts it in a worker thread): it signs and
// POSTs the deliveries the worker hands it, and answers each with what the attempt got.
import { parentPort } from 'node:worker_threads';
import { postDelivery } from './delivery-post';
import type { PostRequest, PostAnswer } from './post-thread';

if (parentPort) {
  const port = parentPort;
  port.on('message', (m: PostRequest) => {
    void postDelivery(m.job).then((result) => port.postMessage({ id: m.id, ...result } satisfies PostAnswer));
  });
}
