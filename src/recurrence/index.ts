// The recurrence extension's rule engine (recurrence.md): pure functions, no Nest module. See
// docs/recurrence-engine.md "The rule engine" for what a caller passes and gets.
export { describeRecurrence } from './describe';
export { expandRecurrence } from './expand';
export type { Expansion, ExpansionWindow, Occurrence } from './expand';
export { icalRecurrenceLines } from './ical-lines';
export { formatRecurrence, parseRecurrence, RecurrenceError } from './recurrence-rule';
export type { Frequency, ParsedRrule, RecurrenceRule, RuleDate, RuleUntil, SeriesTiming } from './recurrence-rule';
export { DEFAULT_HORIZON_DAYS, DEFAULT_RECURRENCE_MAX, validateRecurrence } from './validate-recurrence';
export type { RecurrenceLimits, ValidRecurrence } from './validate-recurrence';
export { RecurrenceModule } from './recurrence.module';
export { RECURRENCE_FEATURE } from './recurrence.feature';
