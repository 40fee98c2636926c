import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../auth';
import { noRoute } from '../errors';
import { INVALID, toPathId } from '../params';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook: the caller, or null for anonymous readers. */
    actor: Actor | null;
  }
}

/** The authenticated caller (null = anonymous). */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor | null => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().actor ?? null;
});

/**
 * All parameters of a request in one object: query string, overridden by the body (spec
 * README §2: JSON body > form body > query string). `null` means "not given".
 * Validated against the DTO type by the global ValidationPipe.
 */
export const Input = createParamDecorator((_: unknown, ctx: ExecutionContext) => mergedParams(ctx));

/** A `{id}` path segment: digits only, else the path matches no route (spec README §1). */
export const PathId = createParamDecorator((name: string | undefined, ctx: ExecutionContext): number => {
  const params = ctx.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string>;
  const id = toPathId(String(params[name ?? 'id'] ?? ''));
  if (id === INVALID) throw noRoute();
  return id;
});

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The query string as parsed, before validation (for rebuilding rest_url from what the client sent). */
export const RawQuery = createParamDecorator((_: unknown, ctx: ExecutionContext): Record<string, unknown> => {
  return asRecord(ctx.switchToHttp().getRequest<FastifyRequest>().query);
});

/**
 * The same merged parameters as @Input(), unvalidated, for the parameters an extension owns
 * (which the route's DTO does not declare). A JSON `null` is kept, so that an extension can tell
 * "clear this" (`null`) from "not given" (absent); the core's own parameters read `null` as not given.
 */
export const RawInput = createParamDecorator((_: unknown, ctx: ExecutionContext) => mergedParams(ctx, true));

function mergedParams(ctx: ExecutionContext, keepNulls = false): Record<string, unknown> {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const merged: Record<string, unknown> = { ...asRecord(req.query), ...asRecord(req.body) };
  if (!keepNulls) for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  return merged;
}
