import { DateTime } from 'luxon';
import { modifiedAfterUtc } from './list-query.dto';

const NOW = DateTime.fromISO('2025-03-12T14:25:36', { zone: 'America/New_York' });

describe('modifiedAfterUtc: modified_after as a UTC bound (site zone New York, EDT = UTC-4)', () => {
  it.each([
    ['2025-03-14 09:30:00', '2025-03-14 13:30:00'], // a wall time in the site zone
    ['2025-03-01 09:30', '2025-03-01 14:30:00'], // before the DST switch: EST = UTC-5
    ['2025-03-14T09:30:00Z', '2025-03-14 09:30:00'], // an instant keeps its own offset
    ['2025-03-14T09:30:00+02:00', '2025-03-14 07:30:00'],
    ['1741944600', '2025-03-14 09:30:00'], // Unix timestamp
    ['now', '2025-03-12 18:25:36'],
    ['yesterday', '2025-03-11 04:00:00'], // midnight, site zone
  ])('%s → %s', (input, utc) => {
    expect(modifiedAfterUtc(input, 'America/New_York', NOW)).toBe(utc);
  });

  it('is undefined when the parameter is absent and null when it does not parse', () => {
    expect(modifiedAfterUtc(undefined, 'America/New_York', NOW)).toBeUndefined();
    expect(modifiedAfterUtc('before my birthday', 'America/New_York', NOW)).toBeNull();
    expect(modifiedAfterUtc('', 'America/New_York', NOW)).toBeNull();
  });
});
