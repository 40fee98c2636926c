import type { Feature } from '../common/feature/feature';
import { importIcs } from './import-ics.command';
import { importTec } from './import-tec.command';
import { ImportedRecordEntity } from './imported-record.entity';
import { TecIdentityByOrigin1795799600000 as MysqlTecIdentity } from './migrations/mysql/1795799600000-TecIdentityByOrigin';
import { TecIdentityByOrigin1795799600000 as SqliteTecIdentity } from './migrations/sqlite/1795799600000-TecIdentityByOrigin';

/**
 * The importers (compat.md, ical.md): commands only, which run in a context of their own
 * (ImportModule); the mapping of source records to local ones is their table.
 */
export const IMPORTS_FEATURE: Feature = {
  name: 'imports',
  entities: [ImportedRecordEntity],
  migrations: { sqlite: [SqliteTecIdentity], mysql: [MysqlTecIdentity] },
  commands: { 'import:tec': importTec, 'import:ics': importIcs },
};
