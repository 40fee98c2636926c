// The webhook post thread's entry (post-thread.ts starts it in a worker thread): it signs and
// POSTs the chains of deliveries the worker hands it, and answers each with the attempts made.
import { parentPort } from 'node:worker_threads';
import { postChain } from './delivery-post';
import { Batcher, PostAnswer, PostRequest } from './post-messages';

if (parentPort) {
  const port = parentPort;
  const answers = new Batcher<PostAnswer>((batch) => port.postMessage(batch));
  port.on('message', (requests: PostRequest[]) => {
    for (const m of requests) void postChain(m.chain).then((results) => answers.push({ id: m.id, results }));
  });
}
