import { join } from 'node:path';
import type { Feature } from '../common/feature/feature';
import { onOffSetting } from '../config/settings';
import { registerManage } from './manage-http';
import { ManageModule } from './manage.module';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';
import { ReviewDeclineEntity } from './review-decline.entity';

/** CALENDAR_MANAGE: the editing pages' switch. */
export const MANAGE_SWITCH = onOffSetting('CALENDAR_MANAGE', 'on', 'the editing pages under /manage/ and their sign-in (editing.md)');

/**
 * The editing pages under /manage/ (editing.md): on with CALENDAR_MANAGE; the session cookie and
 * their headers are set up app-wide. Its one table keeps the review queue's declines; it stays,
 * with its migrations, while the pages are off.
 */
export const MANAGE_FEATURE: Feature = {
  name: 'manage',
  modules: [ManageModule],
  switch: MANAGE_SWITCH,
  setup: registerManage,
  entities: [ReviewDeclineEntity],
  migrations: { sqlite: SQLITE_MIGRATIONS, mysql: MYSQL_MIGRATIONS, folder: join(__dirname, 'migrations') },
};
