import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { nowUtcSql } from '../common/datetime/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { SubmissionsRepository } from './submissions.repository';

/** A form sent back sooner than this after it was given is refused (editing.md §4): people take longer. */
export const MIN_FORM_AGE_MS = 3_000;
/** A form older than this is refused: its stamp could have been kept to be reused. */
export const MAX_FORM_AGE_MS = 24 * 3600 * 1000;

/** What a stamp says of the form that carried it back. */
export type StampReading = { ok: true } | { ok: false; problem: 'missing' | 'forged' | 'early' | 'late' };

/**
 * The signed timestamp of the submission form (editing.md §4, docs/security.md): the time the
 * form was given, with an HMAC-SHA-256 of it under a key kept in the database, so every instance
 * signs and checks with the same key and no client can make or move one. A form sent back under
 * three seconds (a script) or after a day (a kept stamp) is refused. `now` is the clock stamps
 * are made and read by; tests give it another time rather than wait.
 */
@Injectable()
export class SubmissionStamps implements OnApplicationBootstrap {
  now: () => number = () => Date.now();
  private key: Buffer | null = null;

  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Reads the key, making it first when this is the first instance to start with submissions on. */
  async onApplicationBootstrap(): Promise<void> {
    let secret = await this.repository.signingKey();
    if (secret === null) {
      const offered = randomBytes(32).toString('hex');
      await this.unitOfWork.runUnlogged((tx) => this.repository.offerSigningKey(tx, offered, nowUtcSql()));
      secret = await this.repository.signingKey();
    }
    if (secret === null) throw new Error('the submission form has no signing key (submission_keys is empty after making one)');
    this.key = Buffer.from(secret, 'hex');
  }

  /** The stamp of a form given at `at` (milliseconds since the epoch; default now): `<at>.<signature>`. */
  issue(at = this.now()): string {
    const time = String(Math.floor(at));
    return `${time}.${this.sign(time)}`;
  }

  /** Whether the stamp is one of ours and its form is between three seconds and a day old. */
  read(stamp: unknown): StampReading {
    if (typeof stamp !== 'string' || stamp === '') return { ok: false, problem: 'missing' };
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(stamp);
    if (!match) return { ok: false, problem: 'forged' };
    const [, time, signature] = match;
    const expected = Buffer.from(this.sign(time));
    if (!timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, problem: 'forged' };
    const age = this.now() - Number(time);
    if (age < MIN_FORM_AGE_MS) return { ok: false, problem: 'early' };
    if (age > MAX_FORM_AGE_MS) return { ok: false, problem: 'late' };
    return { ok: true };
  }

  private sign(time: string): string {
    if (this.key === null) throw new Error('SubmissionStamps used before the application started');
    return createHmac('sha256', this.key).update(`submission-form:${time}`).digest('base64url');
  }
}
