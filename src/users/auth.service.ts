import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { INCORRECT_PASSWORD, INVALID_USERNAME, WpError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { FailedAuthLimiter, failureLimits, RequestLimiter } from './auth-limiter';
import { LimiterStore } from './limiter-store';
import { hashPassword, normalisePassword, verifyPassword } from './password-hash';
import { UsersService } from './users.service';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1000;

export const invalidUsername = () => new WpError(INVALID_USERNAME, 'The supplied login is not known.', 401);
export const incorrectPassword = () => new WpError(INCORRECT_PASSWORD, 'The supplied password does not match this login.', 401);

/**
 * HTTP Basic authentication with application passwords (spec auth.md §1).
 *
 * scrypt is deliberately slow, so a successful check is remembered for a minute under a
 * SHA-256 digest of login and password (never the password itself), together with the hash it
 * matched: a remembered check holds only while that hash is still stored (one indexed query),
 * so a password changed or revoked by the CLI stops working at once. Failures are not cached,
 * they are counted (FailedAuthLimiter). An unknown login costs one scrypt like a wrong
 * password, so the time of an answer does not tell which logins exist.
 *
 * Requests with the same credentials that arrive while they are being checked wait for that
 * check instead of starting their own: a client opening many connections at once (a cold
 * service, a restart behind a load balancer) costs one scrypt, not one each; each scrypt of
 * these parameters holds 32 MB while it runs (docs/security.md).
 */
@Injectable()
export class AuthService {
  private readonly verified = new Map<string, { actor: Actor; hash: string; expires: number }>();
  /** The checks running now, by the same key as `verified`. */
  private readonly checking = new Map<string, Promise<Actor>>();
  private readonly failures: FailedAuthLimiter;
  private readonly requests: RequestLimiter;
  /** A hash of a random password, verified against when the login is unknown. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UsersService,
    config: AppConfig,
    store: LimiterStore,
  ) {
    const { authMaxFailures: max, authFailureWindow: window } = config;
    this.failures = new FailedAuthLimiter(max, window, store.limiter(failureLimits(max, window)));
    this.requests = new RequestLimiter(config.rateLimit, (opts) => store.limiter(opts));
  }

  /** A request without credentials when no request limit counts it: anonymous, with nothing to check or wait for. */
  isPlainAnonymous(authorization: string | undefined): boolean {
    return authorization === undefined && !this.requests.counting;
  }

  /**
   * null = anonymous (no header, or a scheme other than Basic). Throws 401 for bad credentials,
   * 429 when the login or the client `address` is over a limit.
   */
  async authenticate(authorization: string | undefined, address = ''): Promise<Actor | null> {
    const [scheme, token = ''] = (authorization ?? '').trim().split(/\s+/, 2);
    if (!authorization || scheme.toLowerCase() !== 'basic') {
      await this.requests.take(`ip:${address}`);
      return null;
    }
    const decoded = decodeBasic(token);
    if (!decoded) {
      await this.failures.failed('', address);
      throw invalidUsername();
    }
    await this.failures.assertAllowed(decoded.login, address);
    let actor: Actor;
    try {
      actor = await this.verify(decoded.login, decoded.password);
    } catch (err) {
      if (err instanceof WpError && err.status === 401) await this.failures.failed(decoded.login, address);
      throw err;
    }
    await this.requests.take(`user:${actor.id}`);
    return actor;
  }

  async verify(login: string, password: string): Promise<Actor> {
    const key = createHash('sha256')
      .update(`${login}\0${normalisePassword(password)}`)
      .digest('base64');
    const hit = this.verified.get(key);
    if (hit && hit.expires > Date.now() && (await this.users.hasPasswordHash(hit.actor.id, hit.hash))) return hit.actor;
    this.verified.delete(key);
    const running = this.checking.get(key);
    if (running) return running;
    const check = this.check(key, login, password).finally(() => this.checking.delete(key));
    this.checking.set(key, check);
    return check;
  }

  /** The slow path of verify: the login's stored hashes, each tried with scrypt. */
  private async check(key: string, login: string, password: string): Promise<Actor> {
    const user = await this.users.findByLogin(login);
    if (!user) {
      await verifyPassword(password, await this.dummy()); // the same work as a wrong password
      throw invalidUsername();
    }
    for (const hash of await this.users.passwordHashes(user.id)) {
      if (await verifyPassword(password, hash)) {
        const actor: Actor = { id: user.id, login: user.login, role: user.role };
        this.remember(key, actor, hash);
        return actor;
      }
    }
    throw incorrectPassword();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(18).toString('base64'));
    return this.dummyHash;
  }

  private remember(key: string, actor: Actor, hash: string): void {
    if (this.verified.size >= CACHE_MAX) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(key, { actor, hash, expires: Date.now() + CACHE_TTL_MS });
  }
}

function decodeBasic(token: string): { login: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { login: text.slice(0, colon), password: text.slice(colon + 1) };
}
