import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { nowUtcSql } from '../common/datetime/clock';
import { isValidTimezone } from '../common/datetime/zones';
import { invalidParams } from '../common/errors';
import { Hook } from '../common/feature/hooks';
import { AppConfig } from '../config/app-config';
import { EVENT_FORM_HOOKS } from '../manage';
import type { EventFormContext, EventFormHook, EventFormQuestion, EventFormSection } from '../manage';
import type { SeriesTiming } from './recurrence-rule';
import {
  deleteScopeQuestion,
  emptyRuleForm,
  fieldOfMessage,
  isPreviewRequest,
  previewRule,
  readRuleForm,
  recurrenceForScope,
  type RuleFieldError,
  type RuleFormEvent,
  type RuleFormValues,
  ruleLimits,
  type RulePreview,
  ruleWrite,
  SCOPE_ERROR,
  type ScopeQuestion,
  saveScopeQuestion,
  seriesToRuleForm,
} from './rule-form';
import { renderRuleSection } from './rule-form-html';
import type { Scope } from './series-plan';

type Json = Record<string, unknown>;

// The "Repeats" section plugged into the editing pages' event form by a form hook
// (docs/editing.md "Series in the form"): the form knows nothing of series; this file turns the
// form's post into the API's `recurrence` and `scope` write parameters with rule-form.ts.
// The section's inputs keep their plain names (`repeat`, `repeat_interval`, …: rule-form.ts'
// ids), so they are read from the whole post (`ctx.posted`), not from an `ext_recurrence` part.

/** The ids of the section's inputs: a refusal naming one of them is shown beside it. */
const FIELD_IDS = new Set([
  'repeat',
  'repeat_interval',
  'repeat_days_MO',
  'repeat_monthday',
  'repeat_nth',
  'repeat_weekday',
  'repeat_count',
  'repeat_until',
  'repeat_exdates',
  'repeat_rdates',
  'repeat_rule',
]);

/** The scope question's parameter: the API's `scope` (recurrence.md §4), posted as `answers[scope]`. */
const SCOPE_PARAM = 'scope';

/** "Repeats" in the event form, with the this / following / all question, while the editing pages are on. */
@Hook(EVENT_FORM_HOOKS)
@Injectable()
export class RecurrenceFormHook implements EventFormHook {
  readonly name = 'recurrence';
  readonly formSection: EventFormSection;

  constructor(config: AppConfig) {
    this.formSection = ruleFormSection(config);
  }
}

/** The recurrence extension's section of the event form, with the service's limits from `config`. */
export function ruleFormSection(config: AppConfig): EventFormSection {
  const limits = () => ruleLimits(config, nowUtcSql());
  /** The section's values: as posted, else the stored series', else a new event's (its day: the new form's default start). */
  const valuesOf = (ctx: EventFormContext): RuleFormValues => {
    if (ctx.posted) return readRuleForm(ctx.posted, text(ctx.posted.start_date));
    if (ctx.event) return seriesToRuleForm(ctx.event as unknown as RuleFormEvent);
    return emptyRuleForm(DateTime.now().setZone(config.timezone).startOf('hour').plus({ hours: 1 }).toISODate() ?? '');
  };
  const eventOf = (ctx: EventFormContext) => (ctx.event as unknown as RuleFormEvent | null) ?? null;

  return {
    render(ctx) {
      const values = valuesOf(ctx);
      const errors: RuleFieldError[] = [];
      for (const [param, message] of Object.entries(ctx.errors)) {
        if (param === 'recurrence') errors.push({ field: fieldOfMessage(message, values), message });
        else if (FIELD_IDS.has(param)) errors.push({ field: param, message });
      }
      let preview: RulePreview | null = null;
      if (ctx.posted && isPreviewRequest(ctx.posted)) {
        const timing = timingOfPost(ctx.posted, eventOf(ctx));
        const now = nowUtcSql();
        preview = timing
          ? previewRule(values, timing, ruleLimits(config, now), now, eventOf(ctx))
          : { words: '', dates: [], errors: [{ field: 'repeat', message: 'Enter a valid start, end and time zone to see the next dates.' }] };
        errors.push(...preview.errors.filter((e) => !errors.some((o) => o.field === e.field)));
      }
      return renderRuleSection(values, errors, preview);
    },

    read(_own, input, ctx) {
      const posted = ctx.posted ?? {};
      const event = eventOf(ctx);
      const values = readRuleForm(posted, text(posted.start_date));
      const w = ruleWrite(values, event, timingOfPost(posted, event), limits());
      if (w.errors.length > 0) {
        const params: Record<string, string> = {};
        for (const e of w.errors) params[e.field] ??= e.message;
        throw invalidParams(params);
      }
      if (event?.series) {
        const q = saveScopeQuestion(event, { fields: ctx.changed ?? true, rule: w.ruleChanged });
        // One choice left (a changed rule on the series' first occurrence: all): taken without asking.
        if (!q.ask && q.scope) input[SCOPE_PARAM] = q.scope;
      }
      if (w.recurrence !== undefined) input.recurrence = recurrenceForScope(w.recurrence, scopeOf(input[SCOPE_PARAM]), event);
    },

    question(action, ctx) {
      const event = eventOf(ctx);
      if (!event?.series) return null;
      if (action === 'trash') return asked(deleteScopeQuestion(event), 'Move which events to the trash?');
      if (!ctx.posted) return null;
      const values = readRuleForm(ctx.posted, text(ctx.posted.start_date));
      const w = ruleWrite(values, event, timingOfPost(ctx.posted, event), limits());
      // A rule the form refuses is said beside its field first (read), before any question.
      if (w.errors.length > 0) return null;
      return asked(saveScopeQuestion(event, { fields: ctx.changed ?? false, rule: w.ruleChanged }), 'Change which events?');
    },

    // Any write of an occurrence detaches it (scope=this by default) or reaches others: a save of nothing is none.
    unchangedWritesNothing(ctx) {
      const event = eventOf(ctx);
      if (!event?.series || !ctx.posted) return false;
      const values = readRuleForm(ctx.posted, text(ctx.posted.start_date));
      return !ruleWrite(values, event, timingOfPost(ctx.posted, event)).ruleChanged;
    },

    redisplay: (posted) => isPreviewRequest(posted),

    fieldOf(param, message, ctx) {
      if (param === 'recurrence') return fieldOfMessage(message, readRuleForm(ctx.posted ?? {}));
      if (param === SCOPE_PARAM) return 'answer-scope-this';
      return FIELD_IDS.has(param) ? param : undefined;
    },
  };
}

/** rule-form's question as the form's hook asks it: after the button, the first choice checked. */
function asked(q: ScopeQuestion, legend: string): EventFormQuestion | null {
  if (!q.ask || q.choices.length === 0) return null;
  return { name: SCOPE_PARAM, legend, choices: q.choices, initial: q.choices[0].value, confirm: true, message: SCOPE_ERROR };
}

/**
 * The series' timing as the form's fields give it, the way the core's form writes them
 * (event-form-values.ts): all day is 00:00:00–23:59:59, a time left empty is the day's bound, and
 * a time left at the stored minute keeps the stored seconds. Null when a field is not valid.
 */
function timingOfPost(posted: Json, event: RuleFormEvent | null): SeriesTiming | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const startDay = text(posted.start_date).trim();
  const endDay = text(posted.end_date).trim();
  const zone = text(posted.timezone).trim();
  if (!day.test(startDay) || !day.test(endDay) || zone === '' || !isValidTimezone(zone)) return null;
  const allDay = posted.all_day !== undefined;
  const wall = (d: string, time: string, bound: string, stored: string | undefined) => {
    const t = time.trim();
    const typed = allDay || !/^\d{2}:\d{2}/.test(t) ? `${d} ${bound}` : `${d} ${t.slice(0, 5)}:00`;
    return stored !== undefined && stored.slice(0, 16) === typed.slice(0, 16) ? stored : typed;
  };
  return {
    startDate: wall(startDay, text(posted.start_time), '00:00:00', event?.start_date),
    endDate: wall(endDay, text(posted.end_time), '23:59:59', event?.end_date),
    timezone: zone,
    allDay,
  };
}

function scopeOf(value: unknown): Scope | undefined {
  return value === 'this' || value === 'following' || value === 'all' ? value : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
