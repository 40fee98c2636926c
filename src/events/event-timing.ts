import { wallToUtc } from '../common/datetime/format';

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
 * all-day events span 00:00:00–23:59:59, and an end before the start is moved to the start.
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
  if (end < start) end = allDay ? `${start.slice(0, 10)} 23:59:59` : start;
  return {
    startDate: start,
    endDate: end,
    startDateUtc: wallToUtc(start, change.timezone),
    endDateUtc: wallToUtc(end, change.timezone),
    timezone: change.timezone,
    allDay,
  };
}
