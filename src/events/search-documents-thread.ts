import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { searchDocument } from './search-grams';

/** The thread's compiled entry; absent when the service runs from its TypeScript sources (the tests). */
export const SEARCH_DOCUMENTS_ENTRY = join(__dirname, 'search-documents-main.js');

export interface DocumentsRequest {
  id: number;
  /** Per event: its title, description and excerpt. */
  texts: string[][];
}

export interface DocumentsAnswer {
  id: number;
  documents: string[];
}

/**
 * Search documents (searchDocument) made on a thread of their own, for bulk loads: cutting a
 * million events' texts into trigrams is about a third of a seed's CPU time, and on its own
 * thread it runs while the loading thread writes the previous batch. One
 * request at a time is all a loader needs ahead. Where the compiled entry is absent (the
 * TypeScript sources, in tests) or the thread fails, the documents are made in-process: the
 * same documents, only not in parallel.
 */
export class SearchDocumentsThread {
  private worker: Worker | null = null;
  private next = 0;
  private readonly pending = new Map<number, { texts: string[][]; resolve: (documents: string[]) => void }>();

  constructor(entry = SEARCH_DOCUMENTS_ENTRY) {
    if (!existsSync(entry)) return;
    this.worker = new Worker(entry);
    this.worker.on('message', (answer: DocumentsAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      waiting?.resolve(answer.documents);
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /** The documents of these events' texts (title, description, excerpt each), in order. */
  documents(texts: string[][]): Promise<string[]> {
    if (this.worker === null) return Promise.resolve(texts.map(searchDocument));
    const id = this.next++;
    const request: DocumentsRequest = { id, texts };
    return new Promise((resolve) => {
      this.pending.set(id, { texts, resolve });
      this.worker!.postMessage(request);
    });
  }

  /** Ends the thread (requests still pending are made in-process). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }

  /** The thread is gone: what it still owed is made in-process, and so is everything after. */
  private fail(): void {
    this.worker = null;
    for (const [id, { texts, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(texts.map(searchDocument));
    }
  }
}
