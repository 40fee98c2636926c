import { sanitizeHtml, sanitizePlainText } from '../common/text/sanitize';
import { endBeforeStart, type EventFormField, type EventFormValues, type FieldError } from '../manage';

type Json = Record<string, unknown>;

/** The most links a description may hold (editing.md §4). */
export const MAX_LINKS = 5;

/** The fields of a new venue the submission form asks for (editing.md §7): write parameter → label. */
export const SUBMISSION_VENUE_FIELDS = [
  ['venue', 'Venue name'],
  ['address', 'Address'],
  ['city', 'City'],
  ['country', 'Country'],
] as const;

/** The fields of a new organizer the submission form asks for: write parameter → label. */
export const SUBMISSION_ORGANIZER_FIELDS = [
  ['organizer', 'Organizer name'],
  ['email', 'Organizer e-mail'],
  ['phone', 'Organizer phone'],
  ['website', 'Organizer website'],
] as const;

/** Who sends the event, as an anonymous submitter types it. */
export interface SubmitterValues {
  name: string;
  email: string;
}

/** The name and e-mail as posted, trimmed and cut to their columns' sizes. */
export function postedSubmitter(body: Json): SubmitterValues {
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');
  return { name: text(body.your_name, 200), email: text(body.your_email, 254) };
}

/** An e-mail address as people write them: something, an @, a domain with a dot; no spaces. */
const EMAIL = /^[^\s@<>()"',;]+@[^\s@<>()"',;]+\.[^\s@<>()"',;]+$/;

/** A web address in a description: what becomes a link, and what the limit counts. */
const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;

/** How many links the description holds. */
export function linkCount(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/**
 * The problems the form finds before the write (the write's own checks follow it): an end
 * before the start, more links than allowed, a new venue or organizer without a name, and for
 * an anonymous submitter a missing name or e-mail. Each is a message beside its field.
 */
export function submissionProblems(values: EventFormValues, submitter: SubmitterValues | null): FieldError[] {
  const problems: FieldError[] = [];
  if (values.title.trim() === '') problems.push({ field: 'title', message: 'Give the event a title.' });
  if (endBeforeStart(values)) problems.push({ field: 'end_date', message: 'The end must not be before the start.' });
  if (linkCount(values.description) > MAX_LINKS) {
    problems.push({ field: 'description', message: `The description may hold at most ${MAX_LINKS} links; remove some and send it again.` });
  }
  if (values.venue === 'new' && (values.new_venue.venue ?? '').trim() === '') {
    problems.push({ field: 'new_venue-venue', message: 'Give the new venue a name, or choose another venue.' });
  }
  if (values.organizers.includes('new') && (values.new_organizer.organizer ?? '').trim() === '') {
    problems.push({ field: 'new_organizer-organizer', message: 'Give the new organizer a name, or leave “New organizer” unchecked.' });
  }
  if (submitter !== null) {
    if (submitter.name === '') problems.push({ field: 'your_name', message: 'Enter your name.' });
    if (submitter.email === '') problems.push({ field: 'your_email', message: 'Enter your e-mail address.' });
    else if (!EMAIL.test(submitter.email)) problems.push({ field: 'your_email', message: 'Enter an e-mail address such as name@example.org.' });
  }
  return problems;
}

/**
 * The write's input, as a client of POST /events would send it, for an event written by the
 * configured author with the status `pending` (its new venue and organizer too). What the
 * submitter typed is cleaned as any caller's text without the right to post HTML is: the author
 * usually has that right, the submitter never. Venue, organizers and categories are ids the
 * caller checked (published, existing); the extension fields are those shown on the form.
 */
export function submissionInput(
  v: EventFormValues,
  venueId: number | null,
  organizerIds: number[],
  categoryIds: number[],
  fields: readonly EventFormField[],
): Json {
  const plain = (text: string) => sanitizePlainText(text.trim());
  const input: Json = { title: plain(v.title), status: 'pending', all_day: v.all_day, timezone: v.timezone };
  const description = descriptionHtml(v.description);
  if (description !== '') input.description = description;
  // A date left empty is not sent: the write then names it as missing, beside its field.
  if (v.start_date.trim() !== '') input.start_date = wallTime(v.start_date, v.start_time, v.all_day, 'start');
  if (v.end_date.trim() !== '') input.end_date = wallTime(v.end_date, v.end_time, v.all_day, 'end');
  if (venueId !== null) input.venue = venueId;
  else if (v.venue === 'new') input.venue = { ...given(v.new_venue, SUBMISSION_VENUE_FIELDS, plain), status: 'pending' };
  const organizers: unknown[] = [...organizerIds];
  if (v.organizers.includes('new')) organizers.push({ ...given(v.new_organizer, SUBMISSION_ORGANIZER_FIELDS, plain), status: 'pending' });
  if (organizers.length > 0) input.organizer = organizers;
  if (categoryIds.length > 0) input.categories = categoryIds;
  if (v.cost.trim() !== '') input.cost = plain(v.cost);
  if (v.website.trim() !== '') input.website = v.website.trim();
  if (v.image.trim() !== '') input.image = v.image.trim();
  for (const field of fields) {
    const value = v.ext[field.param] ?? '';
    input[field.param] = field.kind === 'checkbox' ? value !== '' : plain(value);
  }
  return input;
}

/**
 * The description typed as plain text, as HTML: a blank line starts a paragraph, a line break is
 * kept, every `http(s)://` address is a link (`rel="nofollow ugc"`: the site does not vouch for
 * it), and every other character is text, escaped. The result is cleaned once more as any
 * description without the right to post HTML is.
 */
export function descriptionHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const html = paragraphs.map((p) => `<p>${p.split('\n').map(linked).join('<br />\n')}</p>`).join('\n');
  return html === '' ? '' : sanitizeHtml(html);
}

/** One line of text with its addresses as links. */
function linked(line: string): string {
  let out = '';
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    // Punctuation that ends a sentence is not part of the address.
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    const at = match.index;
    out += `${escapeHtml(line.slice(last, at))}<a href="${escapeHtml(url)}" rel="nofollow ugc">${escapeHtml(url)}</a>`;
    last = at + url.length;
  }
  return out + escapeHtml(line.slice(last));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** `date` + `time` as the API's wall time; an all-day event's bounds are its days' first and last second. */
function wallTime(date: string, time: string, allDay: boolean, end: 'start' | 'end'): string {
  const day = date.trim();
  const hhmm = time.trim().slice(0, 5);
  if (allDay || hhmm === '') return `${day} ${end === 'start' ? '00:00:00' : '23:59:59'}`;
  return `${day} ${hhmm}:00`;
}

/** The non-empty fields of a new linked item, cleaned. */
function given(values: Record<string, string>, fields: readonly (readonly [string, string])[], clean: (text: string) => string): Json {
  return Object.fromEntries(fields.flatMap(([name]) => ((values[name] ?? '').trim() === '' ? [] : [[name, clean(values[name])]])));
}
