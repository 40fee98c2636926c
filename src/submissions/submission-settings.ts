import { countSetting, type Setting } from '../config/settings';

/** Who may send events through the public form: nobody (`off`), signed-in users, or anyone. */
export type SubmissionsMode = 'off' | 'users' | 'anyone';

const MODES: readonly SubmissionsMode[] = ['off', 'users', 'anyone'];

/** CALENDAR_SUBMISSIONS (editing.md §4): the submission form at /events/community/add/, off by default. */
export const SUBMISSIONS_MODE: Setting<SubmissionsMode> = {
  name: 'CALENDAR_SUBMISSIONS',
  default: 'off',
  description: 'the public submission form at /events/community/add/: off, users (signed-in users only) or anyone (editing.md §4)',
  read: (text) => {
    const mode = text.toLowerCase() as SubmissionsMode;
    return MODES.includes(mode) ? { value: mode } : { problem: 'CALENDAR_SUBMISSIONS must be off, users or anyone' };
  },
};

/** CALENDAR_SUBMISSIONS_AUTHOR: the login submitted events are written by; empty: the first administrator. */
export const SUBMISSIONS_AUTHOR: Setting<string> = {
  name: 'CALENDAR_SUBMISSIONS_AUTHOR',
  default: '',
  description: 'the login of the user submitted events are written by (empty: the first administrator); a login that does not exist stops the start',
  read: (text) => (text.length <= 60 && !/[\s:]/.test(text) ? { value: text } : { problem: 'CALENDAR_SUBMISSIONS_AUTHOR must be a login' }),
};

/** CALENDAR_SUBMISSIONS_PER_ADDRESS: submissions one client address may send in an hour. */
export const SUBMISSIONS_PER_ADDRESS = countSetting(
  'CALENDAR_SUBMISSIONS_PER_ADDRESS',
  5,
  [1, 100_000],
  'submissions one client address may send in an hour (refused ones do not count)',
);

/** CALENDAR_SUBMISSIONS_PER_HOUR: submissions the whole service takes in an hour. */
export const SUBMISSIONS_PER_HOUR = countSetting(
  'CALENDAR_SUBMISSIONS_PER_HOUR',
  50,
  [1, 1_000_000],
  'submissions the service takes in an hour, from everybody',
);
