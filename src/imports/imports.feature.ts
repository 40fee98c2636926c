import { importIcs, importTec } from '../cli/index';
import type { Feature } from '../common/feature/feature';
import { ImportedRecordEntity } from './imported-record.entity';

/**
 * The importers (compat.md, ical.md): commands only, which run in a context of their own
 * (ImportModule); the mapping of source records to local ones is their table.
 */
export const IMPORTS_FEATURE: Feature = {
  name: 'imports',
  entities: [ImportedRecordEntity],
  commands: { 'import:tec': importTec, 'import:ics': importIcs },
};
