// Scheduled events in the e2e tests: one due in about two seconds, waiting for its date, and the
// change feed followed to see what the scheduled publisher wrote.
import { createCategory, createEvent, EventBody, uid } from './api';
import { Change, changePages } from './changes';
import type { TestApp } from './test-app';

/** Every change after `since` as `authorization` sees it, and the token at the end of the feed. */
export async function follow(t: TestApp, authorization: string, since?: string): Promise<{ changes: Change[]; token: string }> {
  const changes: Change[] = [];
  let token = since ?? '';
  for await (const page of changePages(t, since, authorization)) {
    changes.push(...page.changes);
    token = page.next_sync_token;
  }
  return { changes, token };
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) `ms` from now, rounded up to the next whole second. */
const utcIn = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

/** Waits until the wall clock is past `dateUtc` (the event's publication date has passed). */
export async function passed(dateUtc: string): Promise<void> {
  const at = Date.parse(`${dateUtc.replace(' ', 'T')}Z`);
  while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, at + 50 - Date.now()));
}

/** A scheduled event in a new category, due in about two seconds. */
export async function scheduled(t: TestApp, authorization: string): Promise<{ event: EventBody; categoryId: number }> {
  const category = await createCategory(t, authorization, { name: uid('sched') });
  const event = await createEvent(t, authorization, { title: uid('sched'), date_utc: utcIn(2000), categories: [category.id] });
  expect(event.status).toBe('future');
  return { event, categoryId: category.id };
}
