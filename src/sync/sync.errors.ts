import { WpError } from '../common/errors';

/** The change feed's error code of spec errors.md. */
export const REST_SYNC_TOKEN_EXPIRED = 'rest_sync_token_expired';

/** 410: a change-feed token older than the retention of tombstones (sync.md). */
export const syncTokenExpired = () => new WpError(REST_SYNC_TOKEN_EXPIRED, 'This sync token has expired; start a full sync.', 410);
