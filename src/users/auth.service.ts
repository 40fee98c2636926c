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
 * matched: a remembered check holds only while that hash is still stored and the user's role is
 * the same (one indexed query), so a password changed or revoked by the CLI, or a role changed,
 * takes effect at once. Failures are not cached,
 * they are counted (FailedAuthLimiter). An unknown login costs one scrypt like a wrong
 * password, so the time of an answer does not tell which logins exist.
 *
 * Requests with the same credentials that arrive while they are being checked wait for that
 * check instead of starting their own: a client opening many connections at once (a cold
 * service, a restart behind a load balancer) costs one scrypt, not one each; each scrypt of
 * these parameters holds 32 MB while it runs (docs/security.md).
 *
 * Each refused request counts as one failure, taken from the limiter before it is answered
 * (FailedAuthLimiter.take), so that no more than the limit of 401s go out however many arrive
 * at once: the request that makes a check takes its point before the scrypt (and gives it back
 * when the password was right), each request that waited on a check that refused takes its own
 * afterwards. Past the limit the answer is 429 instead of 401.
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
      await this.failures.take('', address);
      throw invalidUsername();
    }
    const { login, password } = decoded;
    await this.failures.assertAllowed(login, address);
    const actor = await this.verify(login, password, {
      take: () => this.failures.take(login, address),
      giveBack: () => this.failures.giveBack(login, address),
    });
    await this.requests.take(`user:${actor.id}`);
    return actor;
  }

  /**
   * A sign-in of the editing pages (editing.md §1): the same users, passwords and failed-login
   * limits as the API's Basic credentials, one counter per login and per address. Throws 401
   * for wrong credentials, 429 past a limit.
   */
  async signIn(login: string, password: string, address: string): Promise<Actor> {
    await this.failures.assertAllowed(login, address);
    return this.verify(login, password, {
      take: () => this.failures.take(login, address),
      giveBack: () => this.failures.giveBack(login, address),
    });
  }

  /** The actor of these credentials, or a 401; with `tally`, each refusal counted (see the class comment). */
  async verify(login: string, password: string, tally?: FailureTally): Promise<Actor> {
    const key = createHash('sha256')
      .update(`${login}\0${normalisePassword(password)}`)
      .digest('base64');
    const hit = this.verified.get(key);
    if (hit && hit.expires > Date.now() && (await this.users.roleWithPasswordHash(hit.actor.id, hit.hash)) === hit.actor.role) return hit.actor;
    this.verified.delete(key);
    const running = this.checking.get(key);
    if (running) return tally ? countedAfter(running, tally) : running;
    const slow = () => this.check(key, login, password);
    const check = (tally ? countedAround(slow, tally) : slow()).finally(() => this.checking.delete(key));
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

/** Counts one request's failure (throwing 429 past the limit), or gives back one it counted first. */
interface FailureTally {
  take(): Promise<void>;
  giveBack(): Promise<void>;
}

const refused = (err: unknown): boolean => err instanceof WpError && err.status === 401;

/** A check made by this request: its failure is taken before, and given back unless the check refused. */
async function countedAround(check: () => Promise<Actor>, tally: FailureTally): Promise<Actor> {
  await tally.take();
  let actor: Actor;
  try {
    actor = await check();
  } catch (err) {
    if (!refused(err)) await tally.giveBack();
    throw err;
  }
  await tally.giveBack();
  return actor;
}

/** Another request's check, waited on: when it refuses, this request's failure is counted too. */
async function countedAfter(check: Promise<Actor>, tally: FailureTally): Promise<Actor> {
  try {
    return await check;
  } catch (err) {
    if (refused(err)) await tally.take();
    throw err;
  }
}

function decodeBasic(token: string): { login: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { login: text.slice(0, colon), password: text.slice(colon + 1) };
}
