import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Metrics } from '../common/metrics/metrics';
import { Dialect, type PoolUse } from './dialect';

/** The database pool's gauges in the app's metrics, read from the pool when scraped. */
@Injectable()
export class PoolMetrics {
  constructor(metrics: Metrics, dialect: Dialect, @InjectDataSource() db: DataSource) {
    registerPoolMetrics([metrics.registry], () => dialect.poolUse(db));
  }
}

function registerPoolMetrics(registers: Registry[], use: () => PoolUse): void {
  new Gauge({
    name: 'calendar_db_pool_connections',
    help: 'Database connections by state: used (lent out) or free (open, idle). SQLite: its one connection, used while a transaction holds it.',
    labelNames: ['state'],
    registers,
    collect() {
      const now = use();
      this.set({ state: 'used' }, now.used);
      this.set({ state: 'free' }, now.free);
    },
  });
  new Gauge({
    name: 'calendar_db_pool_max',
    help: 'Connections the pool may open (SQLite: 1).',
    registers,
    collect() {
      this.set(use().max);
    },
  });
  new Gauge({
    name: 'calendar_db_pool_waiting',
    help: 'Callers waiting for a database connection (SQLite: transactions queued behind the open one).',
    registers,
    collect() {
      this.set(use().waiting);
    },
  });
}
