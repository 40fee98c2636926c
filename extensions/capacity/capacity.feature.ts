import { join } from 'node:path';
import { onOffSetting } from '../../src/extend';
import type { Feature } from '../../src/extend';
import { capacityReport } from './capacity-report.command';
import { ANSWERS_CACHE } from './capacity.controller';
import { EventCapacityEntity } from './capacity.entity';
import { CapacityModule } from './capacity.module';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';

/**
 * CALENDAR_CAPACITY: whether the capacity extension is on. Off unless set: the example ships
 * with the repository, and a clone's API stays the contract's until someone turns it on (a
 * team's own extension would usually default to on).
 */
export const CAPACITY_SWITCH = onOffSetting('CALENDAR_CAPACITY', 'off', 'the capacity example extension (extensions/capacity)');

/**
 * The capacity extension as a feature (extending.md §2). Its changes are event changes (the
 * field is written inside event writes), so it adds no change kind. Switched off, its table
 * stays and its migrations still run.
 */
export const CAPACITY_FEATURE: Feature = {
  name: 'capacity',
  modules: [CapacityModule],
  switch: CAPACITY_SWITCH,
  entities: [EventCapacityEntity],
  migrations: { sqlite: SQLITE_MIGRATIONS, mysql: MYSQL_MIGRATIONS, folder: join(__dirname, 'migrations') },
  caches: { [ANSWERS_CACHE]: 0.01 },
  commands: { 'capacity:report': capacityReport },
};
