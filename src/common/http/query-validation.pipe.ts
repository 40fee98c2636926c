import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';

/**
 * Distinct inputs remembered per DTO, and the longest one worth remembering (characters of JSON).
 * Every page of every filter set is an input of its own: the mixed list scenario (100 filter
 * sets, pages 1–50) missed a memo of 1,000 on most requests, ~30 µs of class-validator each.
 * 5,000 hold every page of that scenario; an entry is a few hundred bytes.
 */
const MAX_REMEMBERED = 5000;
const MAX_KEY_LENGTH = 2000;

/**
 * The global ValidationPipe, remembering what it made of each query DTO input. Lists are read
 * far more often than anything else, mostly with a handful of query strings (a site's front
 * page, its category pages), and class-validator's cost does not depend on how simple the
 * input is (it walks the metadata of every registered DTO on each call): a profile of
 * GET /events spent a seventh of the request there.
 *
 * Parsing a query is a pure function of its parameters, so the result for the same input is
 * reused; each caller gets its own copy (top-level fields and arrays copied), so no request
 * can change what another sees. Only successes are remembered; bodies and path parameters
 * always go through validation.
 */
export class QueryValidationPipe extends ValidationPipe {
  /** By DTO class, then by the input as JSON; each inner map bounded (oldest out first). */
  private readonly parsed = new Map<unknown, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'query' || !metadata.metatype || typeof value !== 'object' || value === null) return super.transform(value, metadata);
    const key = JSON.stringify(value);
    if (key.length > MAX_KEY_LENGTH) return super.transform(value, metadata);
    let known = this.parsed.get(metadata.metatype);
    if (!known) this.parsed.set(metadata.metatype, (known = new Map()));
    const hit = known.get(key);
    if (hit !== undefined) return copyOf(hit);
    const result: unknown = await super.transform(value, metadata);
    if (typeof result === 'object' && result !== null) {
      if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value as string);
      known.set(key, copyOf(result));
    }
    return result;
  }
}

function copyOf<T extends object>(dto: T): T {
  const copy = Object.create(Object.getPrototypeOf(dto) as object) as Record<string, unknown>;
  for (const [name, field] of Object.entries(dto)) copy[name] = Array.isArray(field) ? [...(field as unknown[])] : field;
  return copy as T;
}
