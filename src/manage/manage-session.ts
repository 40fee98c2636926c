import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../common/auth';
import { AppConfig } from '../config/app-config';
import { type OpenSession, SessionsService } from '../users';
import { SESSION_COOKIE } from './manage-http';
import { ManageRefusal, SignInRequired } from './manage-refusals';

/** Who is editing: the session's user, and the token its forms carry. */
export interface EditorSession {
  actor: Actor;
  session: OpenSession;
  /** The form token (synchronizer pattern) every form that changes anything carries as `_csrf`. */
  formToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by ManageGuard on the editing pages: the signed-in editor. */
    editor?: EditorSession;
  }
}

/** The name of the form token's field in every form that changes anything. */
export const FORM_TOKEN_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The editing pages' door (editing.md §1): the session cookie names a signed-in user, or the
 * reader is sent to the sign-in form with `?next=` back here; a subscriber is told the account
 * has no editing rights (403). A request that changes anything must come from a page of this
 * site (its `Origin`, else its `Referer`; neither is refused) and carry the session's form
 * token. API credentials (Basic) play no part here, and sessions play none in the API.
 */
@Injectable()
export class ManageGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const safe = SAFE_METHODS.has(request.method);
    if (!safe) assertSameOrigin(request, this.config.baseUrl);
    const session = await this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
    if (!session) throw new SignInRequired(safe ? request.url : undefined);
    if (session.actor.role === 'subscriber') {
      throw new ManageRefusal(
        403,
        'No editing rights',
        `The account “${session.actor.login}” can read the calendar but has no editing rights. Ask an administrator for another role.`,
        session,
      );
    }
    if (!safe) {
      const body = request.body as Record<string, unknown> | undefined;
      if (!this.sessions.checkFormToken(session, body?.[FORM_TOKEN_FIELD])) {
        throw new ManageRefusal(
          403,
          'The form has expired',
          'This form was opened in another session, or too long ago. Go back, reload the page and send it again.',
          session,
        );
      }
    }
    request.editor = { actor: session.actor, session, formToken: this.sessions.formToken(session) };
    return true;
  }
}

/**
 * Refuses a request that changes anything unless it came from a page of this site: its `Origin`
 * (or, without one, its `Referer`) is the service's public origin or the origin the request was
 * addressed to. A request with neither is refused like a foreign one (editing.md §8).
 */
export function assertSameOrigin(request: FastifyRequest, baseUrl: string): void {
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  const own = new Set([new URL(baseUrl).origin, `${request.protocol}://${request.headers.host ?? ''}`]);
  if (origin === null || !own.has(origin)) {
    throw new ManageRefusal(
      403,
      'Refused: not sent from this site',
      'This form was not sent from a page of this site, so nothing was changed. Open the page on this site and send it from there.',
    );
  }
}

function originOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string' || value === '' || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** The signed-in editor of an editing page (set by ManageGuard). */
export const Editor = createParamDecorator((_: unknown, ctx: ExecutionContext): EditorSession => {
  const editor = ctx.switchToHttp().getRequest<FastifyRequest>().editor;
  if (!editor) throw new SignInRequired(undefined);
  return editor;
});

/**
 * Where to go after signing in: `next` when it is a path on this site (not `//host`, not
 * `/\host`, no scheme), else the overview.
 */
export function safeNext(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.length > 2000) return fallback;
  if (/[\\\u0000-\u001f]/.test(next)) return fallback;
  try {
    const url = new URL(next, 'http://this.site');
    if (url.origin !== 'http://this.site') return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
