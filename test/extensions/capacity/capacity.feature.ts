import type { Feature } from '../../../src/extend';
import { capacityReport } from './capacity-report.command';
import { ANSWERS_CACHE } from './capacity.controller';
import { EventCapacityEntity } from './capacity.entity';
import { CapacityModule } from './capacity.module';
import { EventCapacity1795800000000 as MysqlEventCapacity } from './migrations/mysql/1795800000000-EventCapacity';
import { EventCapacity1795800000000 as SqliteEventCapacity } from './migrations/sqlite/1795800000000-EventCapacity';

/**
 * The capacity module as a feature (extending.md §2): always on where it is installed. Its
 * changes are event changes (the field is written inside event writes), so it adds no change kind.
 */
export const CAPACITY_FEATURE: Feature = {
  name: 'capacity',
  modules: [CapacityModule],
  entities: [EventCapacityEntity],
  migrations: { sqlite: [SqliteEventCapacity], mysql: [MysqlEventCapacity] },
  caches: { [ANSWERS_CACHE]: 0.01 },
  commands: { 'capacity:report': capacityReport },
};
