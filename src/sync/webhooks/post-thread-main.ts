// The webhook post thread's entry (post-thread.ts starts it in a worker thread): it signs and
// POSTs the deliveries the worker hands it, and answers each with what the attempt got.
import { parentPort } from 'node:worker_threads';
import { postDelivery } from './delivery-post';
import { Batcher, PostAnswer, PostRequest } from './post-messages';

if (parentPort) {
  const port = parentPort;
  const answers = new Batcher<PostAnswer>((batch) => port.postMessage(batch));
  port.on('message', (requests: PostRequest[]) => {
    for (const m of requests) void postDelivery(m.job).then((result) => answers.push({ id: m.id, ...result }));
  });
}
