import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { settingsOf } from './src/common/feature/feature';
import { ensureDatabaseFolder, extensionPathsFromEnv, loadConfigFromEnv } from './src/config/app-config';
import { installedFeatures } from './src/features';
import { schemaDataSourceOptions } from './src/schema';

/** The data source of the migration CLI (`npm run cli -- migration:run|revert|show`). */
const features = installedFeatures(extensionPathsFromEnv());
const config = loadConfigFromEnv({}, features.flatMap(settingsOf));
ensureDatabaseFolder(config.database);

export default new DataSource(schemaDataSourceOptions(config, features));
