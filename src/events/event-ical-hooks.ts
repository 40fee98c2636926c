import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';
import type { EventEntity } from './entities/event.entity';

/** One iCalendar property of a VEVENT: the value already in its iCalendar form (escaped, UTC `…Z` or local). */
export interface IcalProperty {
  name: string;
  params?: Record<string, string>;
  value: string;
}

/**
 * What a hook does to an iCalendar answer (ical.md): the feed's events as the core chose
 * them (in the window, visible to the caller) go in, and the hook may leave some out, add
 * others, give some another UID and add properties to any.
 */
export interface IcalPlan {
  /** Events of the answer to leave out (e.g. occurrences that a series' VEVENT stands for). */
  omit?: ReadonlySet<number>;
  /** Events to add (e.g. a series' first occurrence, even outside the window). */
  add?: readonly EventEntity[];
  /** Properties added to an event's VEVENT, by event id (RRULE, EXDATE, RECURRENCE-ID, a field of its own). */
  properties?: ReadonlyMap<number, readonly IcalProperty[]>;
  /** The UID of an event's VEVENT instead of its own, by event id. */
  uids?: ReadonlyMap<number, string>;
  /** Other times for an event's VEVENT, by event id (a series' VEVENT starts at the series' DTSTART, whichever occurrence gives its fields). */
  times?: ReadonlyMap<number, IcalTimes>;
}

/** A VEVENT's times instead of its event's own: wall times in the event's zone and UTC, `YYYY-MM-DD HH:MM:SS`. */
export interface IcalTimes {
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
  /** UTC: the end of the last instance the VEVENT stands for (a series' last occurrence); its zone's VTIMEZONE covers up to there. */
  lastUtc?: string;
  /** UTC: the last change of anything the VEVENT stands for; DTSTAMP, LAST-MODIFIED and SEQUENCE follow it (they never go back when another event gives the fields). */
  modifiedUtc?: string;
}

/**
 * Whom an iCalendar answer is written for: `service`, the service's own routes (events.ics and
 * ical.md's), where a hook may gather events (a series as one VEVENT with its rule); `tec`,
 * the feeds at TEC's public URLs (compat.md), whose clients read one VEVENT per event and no
 * RRULE, so a hook gathers nothing there (its properties still go on each VEVENT).
 */
export type IcalShape = 'service' | 'tec';

/**
 * One field an event extension shows in the editing pages' event form (editing.md §5), described
 * once: the core renders it (labelled, its help and its message beside it), reads what is posted

/**
 * A hook of the events' iCalendar answers (events.ics, events/{id}.ics, TEC's feeds): the
 * answer's events go in, a plan comes out (IcalPlan).
 */
export interface IcalHook {
  /** `single` for events/{id}.ics, else a feed; `shape` says whom for (IcalShape). */
  icalPlan(events: readonly EventEntity[], single: boolean, shape: IcalShape): Promise<IcalPlan>;
}
export const ICAL_HOOKS = hookKind<IcalHook>('iCalendar');

/** The plans of every hook for one answer, as one. */
export interface MergedIcalPlan {
  omit: ReadonlySet<number>;
  add: readonly EventEntity[];
  properties: ReadonlyMap<number, readonly IcalProperty[]>;
  uids: ReadonlyMap<number, string>;
  times: ReadonlyMap<number, IcalTimes>;
}

/** The hooks of iCalendar answers, as the app provides them (Hooks), for EventIcalService. */
@Injectable()
export class IcalHooks extends Hooks<IcalHook> {
  constructor(discovery: DiscoveryService) {
    super(discovery, ICAL_HOOKS);
  }

  /** Every hook's plan for an answer, in the hooks' order, merged: events left out or added by any; properties of all, in order; for an event's UID and times, the first given wins. */
  async plan(events: readonly EventEntity[], single: boolean, shape: IcalShape): Promise<MergedIcalPlan> {
    const merged = {
      omit: new Set<number>(),
      add: [] as EventEntity[],
      properties: new Map<number, IcalProperty[]>(),
      uids: new Map<number, string>(),
      times: new Map<number, IcalTimes>(),
    };
    for (const hook of this.all()) {
      const plan = await hook.icalPlan(events, single, shape);
      for (const id of plan.omit ?? []) merged.omit.add(id);
      merged.add.push(...(plan.add ?? []));
      for (const [id, list] of plan.properties ?? []) merged.properties.set(id, [...(merged.properties.get(id) ?? []), ...list]);
      for (const [id, uid] of plan.uids ?? []) if (!merged.uids.has(id)) merged.uids.set(id, uid);
      for (const [id, at] of plan.times ?? []) if (!merged.times.has(id)) merged.times.set(id, at);
    }
    return merged;
  }
}
