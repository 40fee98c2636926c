import { join } from 'node:path';
import type { Feature } from '../common/feature/feature';
import { Sources1795799700000 as MysqlSources } from './migrations/mysql/1795799700000-Sources';
import { Sources1795799700000 as SqliteSources } from './migrations/sqlite/1795799700000-Sources';
import { SourceEntity, SourceItemEntity, SourceRunEntity } from './source.entity';
import { SourcesModule } from './sources.module';
import { sourcesList, sourcesRun } from './sources.commands';

/**
 * Sources (sources.md): calendars kept in step from other TEC sites and iCalendar feeds, on a
 * schedule, by a worker in every instance. Its tables and migrations are its own; it writes
 * through the importers and adds the `source` parameter of GET /events through the public
 * extension API.
 */
export const SOURCES_FEATURE: Feature = {
  name: 'sources',
  modules: [SourcesModule],
  entities: [SourceEntity, SourceRunEntity, SourceItemEntity],
  migrations: { sqlite: [SqliteSources], mysql: [MysqlSources], folder: join(__dirname, 'migrations') },
  commands: { 'sources:list': sourcesList, 'sources:run': sourcesRun },
};
