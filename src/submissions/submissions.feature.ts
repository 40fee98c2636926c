import { join } from 'node:path';
import type { Feature } from '../common/feature/feature';
import { EventSubmissionEntity, SubmissionKeyEntity } from './event-submission.entity';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';
import { SUBMISSIONS_AUTHOR, SUBMISSIONS_MODE, SUBMISSIONS_PER_ADDRESS, SUBMISSIONS_PER_HOUR } from './submission-settings';
import { registerSubmissions } from './submissions-http';
import { SubmissionsModule } from './submissions.module';

/**
 * The public submission form (editing.md §4): on while CALENDAR_SUBMISSIONS is `users` or
 * `anyone`. Its tables (who sent each event, the form's signing key) exist either way.
 */
export const SUBMISSIONS_FEATURE: Feature = {
  name: 'submissions',
  modules: [SubmissionsModule],
  settings: [SUBMISSIONS_MODE, SUBMISSIONS_AUTHOR, SUBMISSIONS_PER_ADDRESS, SUBMISSIONS_PER_HOUR],
  enabled: (config) => config.get(SUBMISSIONS_MODE) !== 'off',
  setup: registerSubmissions,
  entities: [EventSubmissionEntity, SubmissionKeyEntity],
  migrations: { sqlite: SQLITE_MIGRATIONS, mysql: MYSQL_MIGRATIONS, folder: join(__dirname, 'migrations') },
};
