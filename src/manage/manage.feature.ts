import type { Feature } from '../common/feature/feature';
import { ManageModule } from './manage.module';

/** The editing pages under /manage/ (editing.md): on with CALENDAR_MANAGE. */
export const MANAGE_FEATURE: Feature = {
  name: 'manage',
  modules: [ManageModule],
  enabled: (config) => config.manage,
};
