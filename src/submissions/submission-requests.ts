import Tokens from '@fastify/csrf';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { SESSION_COOKIE } from '../manage';
import { type OpenSession, SessionsService } from '../users';

/** The cookie that binds an anonymous submitter's form token to its browser. */
export const SUBMISSION_COOKIE = 'calendar_submission';

const csrf = new Tokens({ userInfo: false });

/**
 * Who sends a submission form and the token the form carries against cross-site requests
 * (editing.md §1, §4): a signed-in user's is the editing session's own form token (the
 * synchronizer pattern of the editing pages); an anonymous submitter's is made from a random
 * secret kept in a cookie of its browser (HttpOnly, SameSite=Lax), so that a page of another
 * site can neither read the token nor send a form that matches the cookie.
 */
@Injectable()
export class SubmissionRequests {
  constructor(
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  /** The editing session of the request's cookie, or null. */
  session(request: FastifyRequest): Promise<OpenSession | null> {
    return this.sessions.resolve(request.cookies?.[SESSION_COOKIE]);
  }

  /** The token for the form about to be shown; for an anonymous submitter, its cookie is set when it has none. */
  formToken(request: FastifyRequest, reply: FastifyReply, session: OpenSession | null): string {
    if (session) return this.sessions.formToken(session);
    let secret = this.secretOf(request);
    if (secret === null) {
      secret = csrf.secretSync();
      reply.setCookie(SUBMISSION_COOKIE, secret, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.overHttps(request) });
    }
    return csrf.create(secret);
  }

  /** Whether the posted token was made for this session, or for this browser's cookie. */
  tokenAccepted(request: FastifyRequest, session: OpenSession | null, token: unknown): boolean {
    if (session) return this.sessions.checkFormToken(session, token);
    const secret = this.secretOf(request);
    return secret !== null && typeof token === 'string' && token.length < 200 && csrf.verify(secret, token);
  }

  private secretOf(request: FastifyRequest): string | null {
    const secret = request.cookies?.[SUBMISSION_COOKIE];
    return typeof secret === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(secret) ? secret : null;
  }

  /** Whether the browser reached the service over https: directly, or through the proxy the base URL names. */
  private overHttps(request: FastifyRequest): boolean {
    return request.protocol === 'https' || this.config.baseUrl.startsWith('https://');
  }
}
