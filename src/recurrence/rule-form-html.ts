import {
  KINDS,
  NTH_CHOICES,
  PREVIEW_BUTTON,
  type PreviewDate,
  type RepeatKind,
  type RuleFieldError,
  type RuleFormValues,
  type RulePreview,
  WEEKDAYS,
} from './rule-form';
import { esc } from './rule-form-scope';

// The "Repeats" section of the event form as HTML (editing.md §3), from the values rule-form.ts
// reads and checks.

/**
 * The "Repeats" section of the event form, from the values, their problems and the preview (null
 * before one was asked for). Every control is labelled, groups are fieldsets, each problem sits
 * beside its field and is tied to it with aria-describedby. It has no form of its own: it goes
 * inside the event form, whose "Show the next dates" post (name `repeat_preview`) the controller
 * answers with previewRule instead of saving.
 */
export function renderRuleSection(values: RuleFormValues, errors: readonly RuleFieldError[], preview: RulePreview | null): string {
  const err = (id: string) => errors.find((e) => e.field === id)?.message;
  const described = (id: string, help?: boolean, invalid = true) => {
    const ids = [err(id) ? `${id}-error` : '', help ? `${id}-help` : ''].filter((s) => s !== '');
    return (ids.length > 0 ? ` aria-describedby="${ids.join(' ')}"` : '') + (err(id) && invalid ? ' aria-invalid="true"' : '');
  };
  const errorText = (id: string) => (err(id) ? `<p class="field-error" id="${id}-error">${esc(err(id)!)}</p>` : '');
  const checked = (on: boolean) => (on ? ' checked' : '');
  const selected = (on: boolean) => (on ? ' selected' : '');
  const unit = { never: 'times', daily: 'days', weekly: 'weeks', monthly: 'months', yearly: 'years', custom: 'times' }[values.repeat];
  const kindLabels: Record<RepeatKind, string> = {
    never: 'Never',
    daily: 'Daily',
    weekly: 'Weekly',
    monthly: 'Monthly',
    yearly: 'Yearly',
    custom: 'Custom rule',
  };

  const out: string[] = [];
  // No accessible name for the section: "Repeats" names the select alone, so that a test finding it by label finds one control.
  out.push('<section class="recurrence-form">', '<h2>Recurring event</h2>');
  out.push(
    `<div class="field${err('repeat') ? ' invalid' : ''}"><label for="repeat">Repeats</label>`,
    `<select id="repeat" name="repeat"${described('repeat')}>`,
    ...KINDS.map((k) => `<option value="${k}"${selected(values.repeat === k)}>${kindLabels[k]}</option>`),
    `</select>${errorText('repeat')}</div>`,
  );
  out.push(
    `<div class="field${err('repeat_interval') ? ' invalid' : ''}"><label for="repeat_interval">Every</label>`,
    `<input id="repeat_interval" name="repeat_interval" type="number" min="1" step="1" inputmode="numeric" value="${esc(values.repeat_interval)}"${described('repeat_interval', true)}>`,
    `<p class="help" id="repeat_interval-help">${esc(unit === 'times' ? 'days, weeks, months or years, as Repeats says (2: every other one)' : unit)}</p>`,
    `${errorText('repeat_interval')}</div>`,
  );
  // Weekly: the days. The summary links to Monday's box, the group's first control.
  out.push(
    `<fieldset class="field weekdays${err('repeat_days_MO') ? ' invalid' : ''}"${described('repeat_days_MO', true, false)}><legend>On</legend>`,
    '<p class="help" id="repeat_days_MO-help">Weekly: the days of the week.</p>',
    ...WEEKDAYS.map(
      (d) =>
        `<label for="repeat_days_${d.code}"><input type="checkbox" id="repeat_days_${d.code}" name="repeat_days[]" value="${d.code}"${checked(values.repeat_days.includes(d.code))}${d.code === 'MO' ? described('repeat_days_MO') : ''}> ${d.name}</label>`,
    ),
    `${errorText('repeat_days_MO')}</fieldset>`,
  );
  // Monthly: on day N, or on the Nth / last weekday.
  out.push(
    '<fieldset class="field monthly"><legend>Each month</legend>',
    `<div><input type="radio" id="repeat_monthly_day" name="repeat_monthly" value="day"${checked(values.repeat_monthly === 'day')}> <label for="repeat_monthly_day">On day</label> `,
    `<label for="repeat_monthday" class="visually-hidden">Day of the month</label><input id="repeat_monthday" name="repeat_monthday" type="number" min="1" max="31" inputmode="numeric" value="${esc(values.repeat_monthday)}"${described('repeat_monthday')}>`,
    `${errorText('repeat_monthday')}</div>`,
    `<div><input type="radio" id="repeat_monthly_weekday" name="repeat_monthly" value="weekday"${checked(values.repeat_monthly === 'weekday')}> <label for="repeat_monthly_weekday">On the</label> `,
    `<label for="repeat_nth" class="visually-hidden">Which week</label><select id="repeat_nth" name="repeat_nth"${described('repeat_nth')}>`,
    ...NTH_CHOICES.map((c) => `<option value="${c.value}"${selected(values.repeat_nth === c.value)}>${c.label}</option>`),
    '</select> ',
    `<label for="repeat_weekday" class="visually-hidden">Day of the week</label><select id="repeat_weekday" name="repeat_weekday"${described('repeat_weekday')}>`,
    ...WEEKDAYS.map((d) => `<option value="${d.code}"${selected(values.repeat_weekday === d.code)}>${d.name}</option>`),
    `</select>${errorText('repeat_nth')}${errorText('repeat_weekday')}</div>`,
    '</fieldset>',
  );
  // Ends: never, after N times, on a date.
  out.push(
    '<fieldset class="field ends"><legend>Ends</legend>',
    `<div><input type="radio" id="repeat_ends_never" name="repeat_ends" value="never"${checked(values.repeat_ends === 'never')}> <label for="repeat_ends_never">Never</label></div>`,
    `<div><input type="radio" id="repeat_ends_count" name="repeat_ends" value="count"${checked(values.repeat_ends === 'count')}> <label for="repeat_ends_count">A number of times</label> `,
    `<label for="repeat_count">After</label> <input id="repeat_count" name="repeat_count" type="number" min="1" step="1" inputmode="numeric" value="${esc(values.repeat_count)}"${described('repeat_count')}> times`,
    `${errorText('repeat_count')}</div>`,
    `<div><input type="radio" id="repeat_ends_until" name="repeat_ends" value="until"${checked(values.repeat_ends === 'until')}> <label for="repeat_ends_until">A last date</label> `,
    `<label for="repeat_until">On date</label> <input id="repeat_until" name="repeat_until" type="date" value="${esc(values.repeat_until)}"${described('repeat_until')}>`,
    `${errorText('repeat_until')}</div>`,
    '</fieldset>',
  );
  for (const [id, label, help] of [
    ['repeat_exdates', 'Exception dates', 'Dates without an occurrence, one per line: YYYY-MM-DD (that day), or YYYY-MM-DD HH:MM.'],
    ['repeat_rdates', 'Extra dates', "More occurrences, one per line: YYYY-MM-DD (at the event's time), or YYYY-MM-DD HH:MM."],
  ]) {
    out.push(
      `<div class="field${err(id) ? ' invalid' : ''}"><label for="${id}">${label}</label>`,
      `<textarea id="${id}" name="${id}" rows="3"${described(id, true)}>${esc(values[id as 'repeat_exdates' | 'repeat_rdates'])}</textarea>`,
      `<p class="help" id="${id}-help">${esc(help)}</p>${errorText(id)}</div>`,
    );
  }
  out.push(
    `<div class="field${err('repeat_rule') ? ' invalid' : ''}"><label for="repeat_rule">Custom rule</label>`,
    `<input id="repeat_rule" name="repeat_rule" type="text" spellcheck="false" autocomplete="off" value="${esc(values.repeat_rule)}"${described('repeat_rule', true)}>`,
    // <wbr>: the example is one long word, which would widen the page at 375 px.
    '<p class="help" id="repeat_rule-help">With Repeats set to Custom rule: an RFC 5545 RRULE, e.g. FREQ=MONTHLY;<wbr>BYDAY=MO,<wbr>TU,<wbr>WE,<wbr>TH,<wbr>FR;<wbr>BYSETPOS=-1 (the last weekday of each month).</p>',
    `${errorText('repeat_rule')}</div>`,
  );
  out.push(`<p><button type="submit" name="${PREVIEW_BUTTON}" value="1" formnovalidate>Show the next dates</button></p>`);
  out.push('<div class="recurrence-preview" id="repeat-preview" aria-live="polite">');
  if (preview && preview.errors.length === 0) {
    if (preview.words !== '') out.push(`<p class="recurrence-rule">${esc(preview.words)}</p>`);
    if (preview.dates.length > 0) {
      out.push(
        '<h3>Next dates</h3><ol class="recurrence-next">',
        ...preview.dates.map((d) => `<li><time datetime="${esc(isoOf(d))}">${esc(d.label)}</time></li>`),
        '</ol>',
      );
    } else if (values.repeat !== 'never') {
      out.push('<p>No more dates.</p>');
    } else {
      out.push('<p>The event does not repeat.</p>');
    }
  }
  out.push('</div>', '</section>');
  return out.join('\n');
}

function isoOf(d: PreviewDate): string {
  return `${d.utcStart.replace(' ', 'T')}Z`;
}
