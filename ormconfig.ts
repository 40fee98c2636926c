import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ensureDatabaseFolder, loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

/** The data source of the migration CLI (`npm run cli -- migration:run|revert|show`). */
const config = loadConfig(process.env);
ensureDatabaseFolder(config.database);

export default new DataSource(dataSourceOptions(config));
