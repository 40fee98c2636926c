import { CAPACITY_FEATURE } from './capacity.feature';

// An extension's entry: its Feature as the default export (src/features.ts loads it from
// extensions/<name>/ or from a CALENDAR_EXTENSIONS path).
export default CAPACITY_FEATURE;
