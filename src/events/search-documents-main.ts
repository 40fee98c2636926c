import { parentPort } from 'node:worker_threads';
import { searchDocument } from './search-grams';
import type { DocumentsAnswer, DocumentsRequest } from './search-documents-thread';

// The search-documents thread (SearchDocumentsThread): each request's texts in, their documents out.
parentPort?.on('message', (request: DocumentsRequest) => {
  const answer: DocumentsAnswer = { id: request.id, documents: request.texts.map(searchDocument) };
  parentPort?.postMessage(answer);
});
