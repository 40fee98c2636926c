import { laterWallToUtc, wallToUtc } from '../common/datetime/format';

/** When an event happens: wall-clock start/end in its zone, and the same instants in UTC. */
export interface EventTiming {
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  allDay: boolean;
}

export interface TimingChange {
  /** New wall-clock start/end in `timezone`, `YYYY-MM-DD HH:MM:SS`. */
  start?: string;
  end?: string;
  timezone: string;
  allDay?: boolean;
}

/**
 * Applies a write to an event's timing (spec README §7, endpoints.md §4.3/§4.8): omitted parts
 * keep their wall-clock values (so a new zone alone moves the UTC instants, not the clock),
 * all-day events span 00:00:00–23:59:59, and an end before the start is moved to the start
 * (unless it is the second pass of an hour a fall-back repeats).
 */
export function applyTiming(current: EventTiming | null, change: TimingChange): EventTiming {
  let start = change.start ?? current?.startDate;
  let end = change.end ?? current?.endDate;
  if (start === undefined || end === undefined) throw new Error('an event needs a start and an end');
  const allDay = change.allDay ?? current?.allDay ?? false;
  if (allDay) {
    start = `${start.slice(0, 10)} 00:00:00`;
    end = `${end.slice(0, 10)} 23:59:59`;
  }
  const startDateUtc = wallToUtc(start, change.timezone);
  let endDateUtc: string | null = null;
  if (end < start && !allDay) {
    // The hour a fall-back repeats: an end that reads before the start may be its second pass
    // (01:30 EDT to 01:15 EST is 45 minutes), the only way to write such an end on the clock.
    const later = laterWallToUtc(end, change.timezone);
    if (later >= startDateUtc) endDateUtc = later;
  }
  if (end < start && endDateUtc === null) end = allDay ? `${start.slice(0, 10)} 23:59:59` : start;
  return {
    startDate: start,
    endDate: end,
    startDateUtc,
    endDateUtc: endDateUtc ?? wallToUtc(end, change.timezone),
    timezone: change.timezone,
    allDay,
  };
}
