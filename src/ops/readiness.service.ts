import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorResult,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheBus } from '../common/cache/cache-bus';
import { appliedMigrations, knownMigrations } from '../database/applied-migrations';

/** How long the database may take to answer `SELECT 1` before it counts as down. */
const DATABASE_TIMEOUT_MS = 1000;

/** The answer of `GET /readyz` (sync.md "Operations"): every check by name, `up` or `down` (with why). */
export interface Readiness {
  status: 'ok' | 'error';
  checks: Record<string, { status: 'up' | 'down'; [detail: string]: unknown }>;
}

/**
 * Readiness for a load balancer (sync.md "Operations"): the database answers, no migration is
 * pending, and Redis answers when REDIS_URL is set. The checks are @nestjs/terminus indicators
 * run by its HealthCheckService (concurrently, each failure caught and named); its answer is
 * mapped to the spec's shape (`checks` where terminus says `details`).
 */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly bus: CacheBus,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async check(): Promise<Readiness> {
    const checks: HealthIndicatorFunction[] = [() => this.database.pingCheck('database', { timeout: DATABASE_TIMEOUT_MS }), () => this.migrations()];
    if (this.bus.configured) checks.push(() => this.redis());
    let result: HealthCheckResult;
    try {
      result = await this.health.check(checks);
    } catch (err) {
      // terminus answers a failed check by throwing its result as a 503 exception.
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
    }
    return { status: result.status === 'ok' ? 'ok' : 'error', checks: result.details as Readiness['checks'] };
  }

  /** Every migration this build knows is recorded as applied (CALENDAR_MIGRATE=off leaves that to the operator). */
  private async migrations(): Promise<HealthIndicatorResult<'migrations'>> {
    const check = this.indicators.check('migrations');
    try {
      const applied = await appliedMigrations(this.db, 'fail');
      const pending = knownMigrations(this.db).filter((name) => !applied.has(name));
      return pending.length === 0 ? check.up() : check.down({ message: `${pending.length} migration(s) not applied`, pending });
    } catch (err) {
      return check.down({ message: `the migrations table cannot be read (${(err as Error).message})` });
    }
  }

  private async redis(): Promise<HealthIndicatorResult<'redis'>> {
    const check = this.indicators.check('redis');
    try {
      await this.bus.ping();
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }
}
