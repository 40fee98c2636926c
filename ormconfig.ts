import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ensureDatabaseFolder, loadConfigFromEnv } from './src/config/app-config';
import { schemaDataSourceOptions } from './src/schema';

/** The data source of the migration CLI (`npm run cli -- migration:run|revert|show`). */
const config = loadConfigFromEnv();
ensureDatabaseFolder(config.database);

export default new DataSource(schemaDataSourceOptions(config));
