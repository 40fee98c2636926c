import type { Feature } from '../common/feature/feature';
import { enabledFeatures } from '../common/feature/feature';
import { ConfigError, loadConfig } from '../config/app-config';
import { checkFeatures } from './feature-declarations.module';
import { countSetting, onOffSetting } from '../config/settings';

const SWITCH = onOffSetting('CALENDAR_TICKETS', 'on', 'tickets');
const LIMIT = countSetting('CALENDAR_TICKETS_MAX', 5, [1, 10], 'most tickets');
const TICKETS: Feature = { name: 'tickets', switch: SWITCH, settings: [LIMIT] };

describe("the installed features' settings", () => {
  it('switch a feature on and off by its own setting', () => {
    expect(enabledFeatures([TICKETS], loadConfig({})).map((f) => f.name)).toEqual(['tickets']);
    expect(enabledFeatures([TICKETS], loadConfig({ CALENDAR_TICKETS: 'off' }))).toEqual([]);
  });

  it('are checked together, every problem named', () => {
    const config = loadConfig({ CALENDAR_TICKETS: 'maybe', CALENDAR_TICKETS_MAX: '0' });
    expect(() => checkFeatures([TICKETS], config)).toThrow(
      new ConfigError(['CALENDAR_TICKETS must be on or off (got "maybe")', 'CALENDAR_TICKETS_MAX must be a whole number from 1 to 10 (got "0")']),
    );
    expect(() => checkFeatures([TICKETS], loadConfig({ CALENDAR_TICKETS_MAX: '10' }))).not.toThrow();
  });

  it('refuse two features of one name, or one setting declared by two features', () => {
    const other: Feature = { name: 'other', settings: [onOffSetting('CALENDAR_TICKETS', 'off', 'the same variable')] };
    expect(() => checkFeatures([TICKETS, TICKETS], loadConfig({}))).toThrow('two installed features are named tickets');
    expect(() => checkFeatures([TICKETS, other], loadConfig({}))).toThrow('CALENDAR_TICKETS is declared by both tickets and other');
  });
});
