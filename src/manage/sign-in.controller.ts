import { Body, Controller, Get, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WpError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { AuthService, PERSISTENT_SESSION_SECONDS, SessionsService } from '../users';
import { SESSION_COOKIE } from './manage-http';
import { ManageErrorsFilter } from './manage-errors.filter';
import { assertSameOrigin, Editor, type EditorSession, ManageGuard, safeNext } from './manage-session';
import { ManageViews } from './manage-views';

/** Route config of every editing page (manage-http.ts). */
export const ManageRoute = () => RouteConfig({ manage: true });

type Form = Record<string, unknown>;

/**
 * Signing in and out of the editing pages (editing.md §1). The sign-in form takes the users and
 * application passwords the API takes, under the API's failed-login limits; a success opens a
 * new session (a new token every time: no fixation) and goes back to `?next=` when it is a path
 * on this site.
 */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@Controller('manage')
export class SignInController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly views: ManageViews,
    private readonly config: AppConfig,
  ) {}

  @Get('login')
  @ManageRoute()
  async form(@Query('next') next: unknown, @Query('signed_out') signedOut: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await this.sessions.resolve(req.cookies?.[SESSION_COOKIE]);
    if (session && session.actor.role !== 'subscriber') return reply.redirect(safeNext(next, this.views.path()), 303);
    return this.show(reply, { next: safeNext(next, ''), notice: signedOut !== undefined ? 'You are signed out.' : undefined });
  }

  @Post('login')
  @ManageRoute()
  async signIn(@Body() body: Form | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    assertSameOrigin(req, this.config.baseUrl);
    const login = text(body?.login);
    const password = text(body?.password);
    const keep = body?.remember !== undefined;
    const next = safeNext(body?.next, '');
    if (login === '' || password === '') {
      return this.show(reply, { login, keep, next, error: 'Enter your login and your password.' }, 400);
    }
    let actorId: number;
    try {
      actorId = (await this.auth.signIn(login, password, req.ip)).id;
    } catch (err) {
      if (!(err instanceof WpError)) throw err;
      if (err.status === 429) {
        for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
        const minutes = Math.max(1, Math.ceil(Number(err.headers['retry-after'] ?? 60) / 60));
        return this.show(reply, { login, keep, next, error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }, 429);
      }
      return this.show(reply, { login, keep, next, error: 'The login or the password is not right.' }, 401);
    }
    const token = await this.sessions.start(actorId, keep);
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.overHttps(req),
      ...(keep ? { maxAge: PERSISTENT_SESSION_SECONDS } : {}),
    });
    return reply.redirect(next || this.views.path(), 303);
  }

  @Post('logout')
  @ManageRoute()
  @UseGuards(ManageGuard)
  async signOut(@Editor() _editor: EditorSession, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.sessions.end(req.cookies?.[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.overHttps(req) });
    return reply.redirect(`${this.views.login}?signed_out=1`, 303);
  }

  /** Whether the browser reached the service over https: directly, or through the proxy the base URL names. */
  private overHttps(req: FastifyRequest): boolean {
    return req.protocol === 'https' || this.config.baseUrl.startsWith('https://');
  }

  private show(reply: FastifyReply, data: { login?: string; keep?: boolean; next?: string; error?: string; notice?: string }, status = 200) {
    return this.views.send(reply, { template: 'login', title: 'Sign in', status, data });
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 1000) : '';
}
