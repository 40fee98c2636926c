/**
 * A setting a feature declares in its own folder (Feature.settings): one environment variable,
 * its default, and how its text is read. AppConfig validates the settings of the installed
 * features at start-up with the core's (a bad value stops the start, named with the core's
 * problems) and hands out their values (`config.get(setting)`), so that adding a feature adds
 * no line to src/config.
 */
export interface Setting<T> {
  /** The environment variable: `CALENDAR_` and the feature's name first (`CALENDAR_TICKETS`). */
  readonly name: string;
  /** The text used when the variable is unset or blank. */
  readonly default: string;
  /** One line for the README and `cli help`: what it does. */
  readonly description: string;
  /** The value of a text, or a message saying what is expected (the text is quoted after it). */
  read(text: string): { value: T } | { problem: string };
}

const ON_OFF: Record<string, boolean> = { on: true, true: true, '1': true, yes: true, off: false, false: false, '0': false, no: false };

/** `on`/`off` (also true/false, 1/0, yes/no, any case): a feature's switch. */
export function onOffSetting(name: string, fallback: 'on' | 'off', description: string): Setting<boolean> {
  return {
    name,
    default: fallback,
    description,
    read: (text) => (Object.hasOwn(ON_OFF, text.toLowerCase()) ? { value: ON_OFF[text.toLowerCase()] } : { problem: `${name} must be on or off` }),
  };
}

/** A whole number written in digits only, from `min` to `max`. */
export function countSetting(name: string, fallback: number, [min, max]: readonly [number, number], description: string): Setting<number> {
  return {
    name,
    default: String(fallback),
    description,
    read: (text) =>
      /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
        ? { value: Number(text) }
        : { problem: `${name} must be a whole number from ${min} to ${max}` },
  };
}

/** The value of `setting` in a normalized environment (blank counts as unset), or the problem with it as a startup message. */
export function readSetting<T>(setting: Setting<T>, given: string | undefined): { value: T } | { problem: string } {
  const text = given ?? setting.default;
  const read = setting.read(text);
  return 'problem' in read ? { problem: `${read.problem} (got "${text}")` } : read;
}
