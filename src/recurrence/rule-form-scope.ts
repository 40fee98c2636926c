import type { Scope } from './series-plan';

// The this / following / all question of the event form (recurrence.md §4): when a save or a
// delete of an event in a series asks it, the choices it offers, the answer read from the form,
// and the question as HTML.

/** The radio group of the this / following / all question. */
export const SCOPE_FIELD = 'repeat_scope';

/** What the question needs of the event: whether it is in a series, and whether it was detached from it. */
export interface ScopedEvent {
  id: number;
  series?: { id: number; original_start: string; detached?: boolean } | null;
}

export interface ScopeChoice {
  value: Scope;
  label: string;
}

export interface ScopeQuestion {
  /** Whether to ask before the write; when not, `scope` (if any) is what to send. */
  ask: boolean;
  choices: ScopeChoice[];
  /** The scope to send without asking: undefined outside a series or when there is nothing to write. */
  scope?: Scope;
}

const LABELS: Record<Scope, string> = { this: 'This event', following: 'This and following events', all: 'All events in the series' };
const choice = (value: Scope): ScopeChoice => ({ value, label: LABELS[value] });

/**
 * Whether saving `event` asks "this / following / all" (editing.md §3, recurrence.md §4), and
 * with which choices. Only an event of a series whose fields or rule changed asks. A changed
 * rule cannot apply to "this event" alone (the API refuses `recurrence` with scope=this), and on
 * the series' first occurrence "this and following" is the whole series: when one choice is
 * left, it is taken without asking.
 */
export function saveScopeQuestion(event: ScopedEvent, changed: { fields: boolean; rule: boolean }): ScopeQuestion {
  if (!event.series || (!changed.fields && !changed.rule)) return { ask: false, choices: [] };
  const first = event.series.id === event.id;
  const scopes: Scope[] = [...(changed.rule ? [] : ['this' as const]), ...(first ? [] : ['following' as const]), 'all'];
  if (scopes.length === 1) return { ask: false, choices: [choice(scopes[0])], scope: scopes[0] };
  return { ask: true, choices: scopes.map(choice) };
}

/** The same for deleting (moving to the trash, or for good) an event: an occurrence asks which of the series go with it. */
export function deleteScopeQuestion(event: ScopedEvent): ScopeQuestion {
  if (!event.series) return { ask: false, choices: [] };
  const scopes: Scope[] = event.series.id === event.id ? ['this', 'all'] : ['this', 'following', 'all'];
  return { ask: true, choices: scopes.map(choice) };
}

/**
 * The API's `scope` parameter for the answer posted in `repeat_scope` (or the one taken without
 * asking). Null when the question was asked and the answer is none of its choices: the form is
 * shown again with the question and `scopeError`.
 */
export function scopeOfAnswer(question: ScopeQuestion, body: Record<string, unknown>): Scope | undefined | null {
  if (!question.ask) return question.scope;
  const answer = body[SCOPE_FIELD];
  const found = question.choices.find((c) => c.value === answer);
  return found ? found.value : null;
}

export const SCOPE_ERROR = 'Choose which events of the series the change applies to.';

/**
 * The this / following / all question, to show above the form's buttons when
 * saveScopeQuestion or deleteScopeQuestion asks (the first choice checked unless one was posted).
 */
export function renderScopeQuestion(question: ScopeQuestion, legend: string, answer?: string, error?: string): string {
  if (!question.ask) return '';
  const current = question.choices.some((c) => c.value === answer) ? answer : undefined;
  const out = [
    `<fieldset class="field scope${error ? ' invalid' : ''}"${error ? ` aria-describedby="${SCOPE_FIELD}-error"` : ''}><legend>${esc(legend)}</legend>`,
    ...question.choices.map(
      (c, i) =>
        `<div><input type="radio" id="${SCOPE_FIELD}_${c.value}" name="${SCOPE_FIELD}" value="${c.value}"${(current ?? (error ? '' : question.choices[0].value)) === c.value ? ' checked' : ''}${i === 0 ? ' required' : ''}> <label for="${SCOPE_FIELD}_${c.value}">${esc(c.label)}</label></div>`,
    ),
    error ? `<p class="field-error" id="${SCOPE_FIELD}-error">${esc(error)}</p>` : '',
    '</fieldset>',
  ];
  return out.filter((s) => s !== '').join('\n');
}

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
