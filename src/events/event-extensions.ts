import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { firstGiven } from '../items';
import type { EventEntity } from './entities/event.entity';
import type { EventWriteOrigin } from './event-write-origin';

type Json = Record<string, unknown>;

/** What a write hook of an event extension is told about the write it runs in. */
export interface EventWriteContext {
  actor: Actor | null;
  /** The write's parameters: the body merged over the query string, as received (raw). */
  input: Json;
  /** The row as it was before this write (null on create); `event` is the row as written. */
  before: EventEntity | null;
  /** The write's change set: record further items changed here. */
  changes: ChangeSet;
  /** Who asked for the write (a route, the form, an import, a module's own write). */
  origin: EventWriteOrigin;
}

/** What an extension's parameter check is told about the write. */
export interface EventCheckContext {
  actor: Actor | null;
  /** The event updated (null on create). */
  current: EventEntity | null;
  origin: EventWriteOrigin;
}

/** What a delete hook of an event extension is told about the delete it runs in. */
export interface EventDeleteContext {
  actor: Actor | null;
  /** The delete's parameters: the body merged over the query string, as received (raw). */
  input: Json;
  /** `true`: deleted for good; `false`: moved to the trash. */
  force: boolean;
  changes: ChangeSet;
  origin: EventWriteOrigin;
}

/** What an extension adds to the representation of one event. */
export interface EventExtras {
  /** Keys added at the end of the event's representation (after `custom_fields`, before `json_ld`). */
  fields?: Json;
  /** Members added to the event's JSON-LD. */
  jsonLd?: Json;
}

/** One iCalendar property of a VEVENT: the value already in its iCalendar form (escaped, UTC `…Z` or local). */
export interface IcalProperty {
  name: string;
  params?: Record<string, string>;
  value: string;
}

/**
 * What an extension does to an iCalendar answer (ical.md): the feed's events as the core chose
 * them (in the window, visible to the caller) go in, and the extension may leave some out, add
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
 * ical.md's), where an extension may gather events (a series as one VEVENT with its rule); `tec`,
 * the feeds at TEC's public URLs (compat.md), whose clients read one VEVENT per event and no
 * RRULE, so an extension gathers nothing there (its properties still go on each VEVENT).
 */
export type IcalShape = 'service' | 'tec';

/**
 * One field an event extension shows in the editing pages' event form (editing.md §5), described
 * once: the core renders it (labelled, its help and its message beside it), reads what is posted
 * into the write's input under `param`, and the extension's own `check` validates it in the same
 * write. The stored value is read from the event's representation (the `present` fields) under
 * `param`, unless `value` says otherwise.
 */
export interface EventFormField {
  /** The write parameter (one of the extension's `params`) and the representation's key. */
  readonly param: string;
  readonly label: string;
  readonly kind: 'text' | 'number' | 'select' | 'checkbox' | 'textarea';
  readonly help?: string;
  /** For `select`: the values and their labels, in order (an empty value is "not set"). */
  readonly choices?: readonly { value: string; label: string }[];
  /** Shown on the public submission form too (editing.md §4); the event form always shows it. */
  readonly onSubmissionForm?: boolean;
  /** The form's text for the stored value; default: the representation's `param` as text (null: empty). */
  value?(event: Json): string;
}

/** What an extension's form section is told: the event as stored (null on a new one), what was posted, the messages. */
export interface EventFormContext {
  actor: Actor;
  /** The event's representation as stored (null on a new event). */
  event: Json | null;
  /** The form as posted when it comes back (errors, a conflict, a search), else null. */
  posted: Json | null;
  /** The refused write's messages, by write parameter. */
  errors: Readonly<Record<string, string>>;
  /** On a post of an existing event: whether a field of the core or of `formFields` differs from the stored event. */
  changed?: boolean;
}

/** A question the form asks before it saves or trashes an event (e.g. a series' scope), posted under `name`. */
export interface EventFormQuestion {
  /** The form parameter, copied into the write's input (e.g. `scope`). */
  readonly name: string;
  readonly legend: string;
  readonly choices: readonly { value: string; label: string }[];
  /** The choice checked first. */
  readonly initial: string;
  /**
   * Asked only when its button is pressed: the form is not written but comes back with the
   * question above the buttons (every value kept, `message` beside it), and the same button
   * with an answer goes on. Without it, the question is always shown and `initial` is the answer.
   */
  readonly confirm?: boolean;
  /** What the form says beside a `confirm` question when it asks it. */
  readonly message?: string;
}

/**
 * A whole section an extension adds to the event form (e.g. a series' "Repeats"): its HTML,
 * escaped by the extension, with every input named under `ext_<extension name>[…]`, and how its
 * posted values become write parameters. Optionally a question asked beside the buttons.
 */
export interface EventFormSection {
  /** The section's HTML (a `<fieldset>` with a `<legend>` is the expected shape). */
  render(ctx: EventFormContext): string | Promise<string>;
  /**
   * Adds its write parameters to `input` from what it posted (`posted`: its own `ext_<name>` part,
   * or `{}`; `ctx.posted` the whole post), after the answers to the questions are in `input`. May
   * throw a WpError (rest_invalid_param) to refuse the section's values before anything is written.
   */
  read(posted: Json, input: Json, ctx: EventFormContext): void;
  /** A question before `save` or `trash` of this event; null: none. */
  question?(action: 'save' | 'trash', ctx: EventFormContext): EventFormQuestion | null;
  /**
   * Whether a save of `ctx.event` whose fields are all as stored (`ctx.changed` false) should
   * write nothing (an occurrence of a series, which any write would detach); the form then
   * answers as after a save.
   */
  unchangedWritesNothing?(ctx: EventFormContext): boolean;
  /** Whether a post is a request of the section's own (a preview): the form comes back with every value kept, nothing written. */
  redisplay?(posted: Json): boolean;
  /** The id of the section's input a refused parameter's message belongs beside (the summary links there); undefined: none. */
  fieldOf?(param: string, message: string, ctx: EventFormContext): string | undefined;
}

/**
 * Extension point for modules that add fields and behaviour to events (extending.md §1): a
 * field of their own, stored in their own tables in the write's unit of work, shown in the
 * representation for a whole page at once. Every method is optional but `name` and `params`.
 * A module registers its extension in onModuleInit.
 */
export interface EventExtension {
  /** For messages and logs. */
  readonly name: string;
  /** The write parameters it owns (kept out of the core's validation; ignored when the module is off). */
  readonly params: readonly string[];
  /**
   * Checks its parameters before anything is written (with the core's parameter checks, so a
   * bad value answers 400 rest_invalid_param with `data.params`): `{ param: message }` for
   * every bad one. `current`: the event updated (null on create).
   */
  check?(input: Json, ctx: EventCheckContext): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Inside the write's unit of work, after the event's row and links are written: stores the
   * extension's data. May throw a WpError to refuse the write (nothing is kept); may write
   * more events through EventWrites, which run under the same rules.
   */
  saved?(tx: Tx, event: EventEntity, ctx: EventWriteContext): Promise<void>;
  /** Inside the unit of work of a delete (trash or for good), before the row changes. */
  deleting?(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void>;
  /** Extra output for a page of events, in one query for the page: by event id. */
  present?(events: readonly EventEntity[]): Promise<Map<number, EventExtras>>;
  /**
   * A fragment of HTML for the event's public page (pages.md), from its representation (with
   * this extension's fields): escaped by the extension; null for none. It may read (the
   * recurrence extension links an occurrence's next occurrences), so the page awaits it.
   */
  pageFragment?(event: Json): string | null | Promise<string | null>;
  /** iCalendar answers: `single` for events/{id}.ics, else a feed; `shape` says whom for (IcalShape). */
  ical?(events: readonly EventEntity[], single: boolean, shape: IcalShape): Promise<IcalPlan>;
  /** Fields of the editing pages' event form (editing.md §5), in order, after the core's. */
  readonly formFields?: readonly EventFormField[];
  /** A section of its own in the event form, for what fields alone cannot say (EventFormSection). */
  readonly formSection?: EventFormSection;
}

/**
 * Writes of events inside a running unit of work (a hook's, an extension's), under the same
 * rules as the routes' writes: the same checks, rights of `actor`, slugs, links, change rows
 * and extensions (whose `saved`/`deleting` run for these writes too, told the `origin` the caller
 * gives: `extension` when none, `series` for a series' occurrences). Errors are the routes' errors.
 */
export abstract class EventWrites {
  abstract create(tx: Tx, changes: ChangeSet, actor: Actor | null, input: Json, origin?: EventWriteOrigin): Promise<EventEntity>;
  /**
   * As many creates in a row, with the same rows, links, change records, errors and `saved`
   * hooks (in the list's order, after every row and link is written), in far fewer statements
   * when the inputs share their author, venue, organizers, image and terms (a series'
   * occurrences). Answers the rows in the order of `inputs`.
   */
  abstract createMany(tx: Tx, changes: ChangeSet, actor: Actor | null, inputs: Json[], origin?: EventWriteOrigin): Promise<EventEntity[]>;
  abstract update(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, input: Json, origin?: EventWriteOrigin): Promise<EventEntity>;
  /** To the trash (`force` false) or for good. */
  abstract remove(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, force: boolean, input?: Json, origin?: EventWriteOrigin): Promise<void>;
}

/**
 * The registry of event extensions; EventsModule exports it. Besides the list, it runs every
 * extension's part of a write, a delete and a presentation, so that the core calls one method
 * at each step and needs no loop of its own.
 */
@Injectable()
export class EventExtensions {
  private readonly list: EventExtension[] = [];

  register(extension: EventExtension): void {
    this.list.push(extension);
  }

  all(): readonly EventExtension[] {
    return this.list;
  }

  /** Is some extension in charge of this write parameter? */
  owns(param: string): boolean {
    return this.list.some((e) => e.params.includes(param));
  }

  /** Every extension's parameter checks of a write, merged: `{ param: message }` (for a parameter, the first message given wins). */
  async check(input: Json, ctx: EventCheckContext): Promise<Record<string, string>> {
    let bad: Record<string, string> = {};
    for (const extension of this.list) if (extension.check) bad = firstGiven(bad, await extension.check(input, ctx));
    return bad;
  }

  /** Every extension's `saved`, in registration order, inside the write's unit of work. */
  async saved(tx: Tx, event: EventEntity, ctx: EventWriteContext): Promise<void> {
    for (const extension of this.list) await extension.saved?.(tx, event, ctx);
  }

  /** Every extension's `deleting`, inside the delete's unit of work, before the row changes. */
  async deleting(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    for (const extension of this.list) await extension.deleting?.(tx, event, ctx);
  }

  /**
   * Every extension's output for a page of events (one call each), merged per event in
   * registration order: a key an earlier extension gave is kept (README "Hooks").
   */
  async present(events: readonly EventEntity[]): Promise<Map<number, EventExtras>> {
    const merged = new Map<number, EventExtras>();
    if (events.length === 0) return merged;
    for (const extension of this.list) {
      if (!extension.present) continue;
      for (const [id, extras] of await extension.present(events)) {
        const current = merged.get(id);
        merged.set(id, { fields: firstGiven(current?.fields, extras.fields), jsonLd: firstGiven(current?.jsonLd, extras.jsonLd) });
      }
    }
    return merged;
  }

  /** The fragments of HTML the extensions add to an event's public page, in registration order. */
  async pageFragments(event: Json): Promise<string[]> {
    const fragments: string[] = [];
    for (const extension of this.list) {
      const fragment = await extension.pageFragment?.(event);
      if (fragment) fragments.push(fragment);
    }
    return fragments;
  }

  /** Do some extensions change iCalendar answers? (Only then are the answer's rows read for them.) */
  changesIcal(): boolean {
    return this.list.some((e) => e.ical !== undefined);
  }

  /** Every extension's plan for an iCalendar answer, in registration order. */
  async icalPlans(events: readonly EventEntity[], single: boolean, shape: IcalShape): Promise<IcalPlan[]> {
    const plans: IcalPlan[] = [];
    for (const extension of this.list) if (extension.ical) plans.push(await extension.ical(events, single, shape));
    return plans;
  }
}
