import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Actor } from '../common/auth';
import { hookKind, Hooks } from '../common/feature/hooks';

type Json = Record<string, unknown>;

/**
 * One field a hook shows in the editing pages' event form (editing.md §5), described once: the
 * form renders it (labelled, its help and its message beside it), reads what is posted into the
 * write's input under `param`, and the `check` of the event hook that owns `param` validates it
 * in the same write. The stored value is read from the event's representation (an event hook's
 * `present` fields) under `param`, unless `value` says otherwise.
 */
export interface EventFormField {
  /** The write parameter (one of an event hook's `params`) and the representation's key. */
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

/** What a form section is told: the event as stored (null on a new one), what was posted, the messages. */
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
 * A whole section a hook adds to the event form (e.g. a series' "Repeats"): its HTML, escaped by
 * the hook, with every input named under `ext_<hook name>[…]`, and how its posted values become
 * write parameters. Optionally a question asked beside the buttons.
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
 * A hook of the editing pages' event form (editing.md §5): fields of its own after the core's,
 * or a whole section, for write parameters an event hook owns. Without the editing pages
 * (CALENDAR_MANAGE off) it is not asked.
 */
export interface EventFormHook {
  /** Names its section's inputs (`ext_<name>[…]`). */
  readonly name: string;
  /** Fields of the event form, in order, after the core's. */
  readonly formFields?: readonly EventFormField[];
  /** A section of its own in the event form, for what fields alone cannot say (EventFormSection). */
  readonly formSection?: EventFormSection;
}
export const EVENT_FORM_HOOKS = hookKind<EventFormHook>('event form');

/** The hooks of the event form, as the app provides them (Hooks), and their part of showing and posting it. */
@Injectable()
export class EventFormHooks extends Hooks<EventFormHook> {
  constructor(discovery: DiscoveryService) {
    super(discovery, EVENT_FORM_HOOKS);
  }

  /** Every hook's form fields, in order. */
  fields(): EventFormField[] {
    return formFields(this.all());
  }

  /** Adds to `input` what each section posted (`posted`: each section's part by hook name). */
  readSections(posted: Readonly<Record<string, Json>>, input: Json, ctx: EventFormContext): void {
    for (const hook of this.all()) hook.formSection?.read(posted[hook.name] ?? {}, input, ctx);
  }

  /** The sections' questions before `action` (EventFormSection.question). */
  questions(action: 'save' | 'trash', ctx: EventFormContext): EventFormQuestion[] {
    return this.all()
      .map((h) => h.formSection?.question?.(action, ctx) ?? null)
      .filter((q) => q !== null);
  }

  /** The questions before `action` that ask first (`confirm`) and have no valid answer in `answers`. */
  unanswered(action: 'save' | 'trash', ctx: EventFormContext, answers: Record<string, string>): EventFormQuestion[] {
    return this.questions(action, ctx).filter((q) => q.confirm && !q.choices.some((c) => c.value === answers[q.name]));
  }

  /** Whether a section says that this unchanged form must not be written (EventFormSection.unchangedWritesNothing). */
  unchangedWritesNothing(ctx: EventFormContext): boolean {
    return this.all().some((h) => h.formSection?.unchangedWritesNothing?.(ctx) === true);
  }

  /** Whether a section asks this post to show the form again (its preview) instead of writing. */
  redisplay(posted: Json): boolean {
    return this.all().some((h) => h.formSection?.redisplay?.(posted) === true);
  }

  /** The id of a section's input for a refused parameter, the first that claims it. */
  sectionFieldOf(param: string, message: string, ctx: EventFormContext): string | undefined {
    for (const hook of this.all()) {
      const id = hook.formSection?.fieldOf?.(param, message, ctx);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** The sections, rendered, in order. */
  async sections(ctx: EventFormContext): Promise<string[]> {
    const html: string[] = [];
    for (const hook of this.all()) if (hook.formSection) html.push(await hook.formSection.render(ctx));
    return html;
  }
}

/** Every form field of these hooks, in their order. */
export function formFields(hooks: readonly EventFormHook[]): EventFormField[] {
  return hooks.flatMap((h) => [...(h.formFields ?? [])]);
}
