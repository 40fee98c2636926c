import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { INCORRECT_PASSWORD, INVALID_USERNAME, WpError } from '../common/errors';
import { normalisePassword, verifyPassword } from './password-hash';
import { UsersService } from './users.service';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1000;

export const invalidUsername = () => new WpError(INVALID_USERNAME, 'The supplied login is not known.', 401);
export const incorrectPassword = () =>
  new WpError(INCORRECT_PASSWORD, 'The supplied password does not match this login.', 401);

/**
 * HTTP Basic authentication with application passwords (spec auth.md §1).
 *
 * scrypt is deliberately slow, so a successful check is remembered for a minute under a
 * SHA-256 digest of login and password (never the password itself); failures are not cached.
 */
@Injectable()
export class AuthService {
  private readonly verified = new Map<string, { actor: Actor; expires: number }>();

  constructor(private readonly users: UsersService) {}

  /** null = anonymous (no header, or a scheme other than Basic). Throws 401 for bad credentials. */
  async authenticate(authorization: string | undefined): Promise<Actor | null> {
    if (!authorization) return null;
    const [scheme, token = ''] = authorization.trim().split(/\s+/, 2);
    if (scheme.toLowerCase() !== 'basic') return null;
    const decoded = decodeBasic(token);
    if (!decoded) throw invalidUsername();
    return this.verify(decoded.login, decoded.password);
  }

  async verify(login: string, password: string): Promise<Actor> {
    const key = createHash('sha256').update(`${login}\0${normalisePassword(password)}`).digest('base64');
    const hit = this.verified.get(key);
    if (hit && hit.expires > Date.now()) return hit.actor;

    const user = await this.users.findByLogin(login);
    if (!user) throw invalidUsername();
    for (const hash of await this.users.passwordHashes(user.id)) {
      if (await verifyPassword(password, hash)) {
        const actor: Actor = { id: user.id, login: user.login, role: user.role };
        this.remember(key, actor);
        return actor;
      }
    }
    throw incorrectPassword();
  }

  private remember(key: string, actor: Actor): void {
    if (this.verified.size >= CACHE_MAX) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(key, { actor, expires: Date.now() + CACHE_TTL_MS });
  }
}

function decodeBasic(token: string): { login: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { login: text.slice(0, colon), password: text.slice(colon + 1) };
}
