import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { preconditionFailed } from '../errors';
import { bodyTag, ifMatchAccepts } from './representation';

/**
 * Optimistic concurrency (beyond.md #4): an update or delete that names, in `If-Match`, the tag
 * of the item as its single GET showed it to the caller goes ahead only while the item still is
 * that way. The check has two halves around the write's transaction:
 *
 * 1. `assertIfMatch`, before it, presents the item as the caller's GET would and compares tags
 *    (the presenters read outside transactions);
 * 2. `assertUnchanged`, inside it, once the row is locked: if the row is not exactly the one
 *    checked, another write came in between, and this one is refused as well.
 *
 * So a write never lands on a state its client did not see. (A rename of an embedded venue that
 * lands between the two halves changes the event's body without touching its row: that narrow
 * case is let through, see docs/compatibility.md.)
 */

/** The `If-Match` header of the request, or undefined when absent. */
export const IfMatch = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers['if-match'];
  return typeof header === 'string' ? header : undefined;
});

/** The strong tag a JSON body has when sent as it is (the tag representation.ts gives its bytes). */
export function tagOfJson(body: unknown): string {
  return bodyTag(Buffer.from(JSON.stringify(body)));
}

/**
 * Half 1: no header, no check; `*` passes for any item that exists (the caller got this far);
 * otherwise the tag of `currentBody()` (the item's single GET body for this caller; null when
 * the caller may not read it, which no tag can match) must be among those named.
 */
export async function assertIfMatch(ifMatch: string | undefined, currentBody: () => Promise<unknown>): Promise<void> {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const body = await currentBody();
  if (body === null || !ifMatchAccepts(ifMatch, tagOfJson(body))) throw preconditionFailed();
}

/** Half 2: inside the transaction, the locked row must be the row half 1 checked. */
export function assertUnchanged(ifMatch: string | undefined, checked: object, locked: object | null): void {
  if (ifMatch === undefined) return;
  if (locked === null || !sameRow(checked, locked)) throw preconditionFailed();
}

/** Do two reads of one row hold the same column values? */
export function sameRow(a: object, b: object): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => left[key] === right[key]);
}

/**
 * A write's answer with the tag of the item's single GET as it now is, for the same caller
 * (beyond.md #4: "a successful write answers with the new ETag"). The answer body itself is the
 * write's (without JSON-LD), so the tag is the GET body's, computed by the service.
 */
export class Tagged {
  constructor(
    readonly body: unknown,
    readonly tag: string,
  ) {}
}
