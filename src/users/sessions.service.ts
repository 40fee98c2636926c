import { createHash, randomBytes } from 'node:crypto';
import Tokens from '@fastify/csrf';
import { Injectable } from '@nestjs/common';
import { DateTime, Settings } from 'luxon';
import type { Actor } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { nowUtcSql } from '../common/datetime/clock';
import { SessionsRepository } from './sessions.repository';

/** Idle expiry of a session (editing.md §1). */
export const SESSION_IDLE_SECONDS = 2 * 3600;
/** Idle expiry with "keep me signed in". */
export const PERSISTENT_SESSION_SECONDS = 30 * 24 * 3600;
/**
 * A used session's expiry is pushed forward at most this often: a page view is a read, and
 * writing the row on every one would make every editor's click a write on the cluster.
 */
const TOUCH_EVERY_SECONDS = 60;

/** A session that is still good, with its user as the pages' actor. */
export interface OpenSession {
  id: number;
  actor: Actor;
  persistent: boolean;
  /** Makes and checks the session's form tokens. */
  csrfSecret: string;
}

const csrf = new Tokens({ userInfo: false });

/**
 * The editing pages' sessions (editing.md §1): a random token in the browser's cookie, its
 * digest in the `sessions` table, shared by every instance. UsersService ends a user's sessions
 * when its passwords change or are revoked and when it is deleted.
 */
@Injectable()
export class SessionsService {
  constructor(private readonly sessions: SessionsRepository) {}

  /** Opens a session for the user and answers the token for its cookie (always a new one: no fixation). */
  async start(userId: number, persistent: boolean): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    // Sign-ins are rare and the expiry is indexed: sweeping here keeps the table to the open sessions without a timer.
    await this.sweep();
    await this.sessions.insert({
      tokenHash: digest(token),
      userId,
      csrfSecret: csrf.secretSync(),
      persistent,
      createdUtc: nowUtcSql(),
      expiresUtc: expiry(persistent),
    });
    return token;
  }

  /** The open session of a cookie's token, or null (unknown, expired, its user gone). Pushes its idle expiry forward. */
  async resolve(token: string | undefined): Promise<OpenSession | null> {
    if (!token || token.length > 100) return null;
    const row = await this.sessions.withUser(digest(token));
    if (!row) return null;
    const now = nowUtcSql();
    if (row.expiresUtc <= now) {
      await this.sessions.remove(row.id);
      return null;
    }
    const next = expiry(row.persistent);
    if (secondsBetween(row.expiresUtc, next) >= TOUCH_EVERY_SECONDS) {
      await this.sessions.setExpiry(row.id, next);
    }
    return {
      id: row.id,
      actor: { id: row.user.id, login: row.user.login, role: row.user.role },
      persistent: row.persistent,
      csrfSecret: row.csrfSecret,
    };
  }

  /** Ends the session of a cookie's token (signing out). */
  async end(token: string | undefined): Promise<void> {
    if (token) await this.sessions.removeByTokenHash(digest(token));
  }

  /** Ends every session of the user (the users page's "End sessions"); answers how many there were. */
  async endAllOf(userId: number): Promise<number> {
    return this.sessions.removeAllOf(userId, null);
  }

  /** Deletes sessions expired before now (a sweep; a stale row is refused on read anyway). */
  async sweep(): Promise<void> {
    await this.sessions.removeExpired(nowUtcSql());
  }

  /** A form token of the session: what a page puts in every form that changes anything. */
  formToken(session: OpenSession): string {
    return csrf.create(session.csrfSecret);
  }

  /** Whether a form token was made for this session (constant-time, by @fastify/csrf). */
  checkFormToken(session: OpenSession, token: unknown): boolean {
    return typeof token === 'string' && token.length < 200 && csrf.verify(session.csrfSecret, token);
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function expiry(persistent: boolean): string {
  const seconds = persistent ? PERSISTENT_SESSION_SECONDS : SESSION_IDLE_SECONDS;
  return formatSql(DateTime.fromMillis(Settings.now() + seconds * 1000, { zone: 'utc' }));
}

function secondsBetween(a: string, b: string): number {
  const at = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);
  return (at(b) - at(a)) / 1000;
}
