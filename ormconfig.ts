import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ensureDatabaseFolder, loadConfig } from './src/config/app-config';
import { schemaDataSourceOptions } from './src/schema';

/** The data source of the migration CLI (`npm run cli -- migration:run|revert|show`). */
const config = loadConfig(process.env);
ensureDatabaseFolder(config.database);

export default new DataSource(schemaDataSourceOptions(config));
