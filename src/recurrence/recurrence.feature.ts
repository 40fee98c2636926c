import { join } from 'node:path';
import type { Feature } from '../common/feature/feature';
import { onOffSetting } from '../config/settings';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { RecurrenceSeries1795790809763 as MysqlRecurrenceSeries } from './migrations/mysql/1795790809763-RecurrenceSeries';
import { RecurrenceSeries1795790809763 as SqliteRecurrenceSeries } from './migrations/sqlite/1795790809763-RecurrenceSeries';
import { RecurrenceModule } from './recurrence.module';

/** CALENDAR_RECURRENCE: the recurrence extension's switch. */
export const RECURRENCE_SWITCH = onOffSetting('CALENDAR_RECURRENCE', 'off', 'recurring events: series and their occurrences (recurrence.md)');

/**
 * The recurrence extension as a feature (extending.md §2): on with CALENDAR_RECURRENCE=on. Its
 * tables and migrations are there whether it is on or off, so that occurrences made while it was
 * on stay plain events while it is off and are series again when it is back (recurrence.md §1).
 * It adds no change kind (occurrences are events, written through EventWrites) and no cache of
 * its own (what it adds to event representations is cached with them).
 */
export const RECURRENCE_FEATURE: Feature = {
  name: 'recurrence',
  modules: [RecurrenceModule],
  switch: RECURRENCE_SWITCH,
  entities: [SeriesEntity, OccurrenceEntity],
  migrations: { sqlite: [SqliteRecurrenceSeries], mysql: [MysqlRecurrenceSeries], folder: join(__dirname, 'migrations') },
};
