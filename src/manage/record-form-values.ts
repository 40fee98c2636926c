import { type Actor, can } from '../common/auth';
import { REST_INVALID_PARAM, REST_MISSING_CALLBACK_PARAM, WpError } from '../common/errors';
import type { Json, LinkedItemEntity } from '../linked-items';
import { type FieldError, formErrors } from './form-errors';
import { ManageRefusal } from './manage-refusals';
import type { RecordKind } from './records';

// The venue and organizer form's values (editing.md §2): read from the stored record or from
// the posted form, turned into the API's write parameters, and the refusals and conflicts of a
// write put back on the form's inputs. `extensionParams` are the parameters that optional
// modules add to the form.

type Form = Record<string, unknown>;

/** A form's values, by API parameter (checkboxes as booleans). */
export type Values = Record<string, string | boolean>;

/** Labels of parameters that optional modules add to the form (the geo extension's coordinates); others show their name. */
export const EXTENSION_LABELS: Record<string, string> = { geo_lat: 'Latitude', geo_lng: 'Longitude' };

export const STATUS_LABELS: Record<string, string> = {
  publish: 'Published',
  future: 'Scheduled',
  draft: 'Draft',
  pending: 'Pending review',
  private: 'Private',
  trash: 'In the trash',
};

/** The form's values from the stored record: raw texts (what was written, not the presented HTML). */
export function storedValues(kind: RecordKind, extensionParams: string[], record: LoadedRecord): Values {
  const e = record.entity as unknown as Record<string, unknown>;
  const json = record.json;
  const values: Values = {
    [kind.type]: record.entity.name,
    description: record.entity.description,
    slug: record.entity.slug,
    status: String(json.status),
    date: String(json.date ?? '').replace(' ', 'T'),
    author: String(record.entity.authorId),
    image: '',
  };
  for (const f of kind.fields) {
    const value = f.param in json ? json[f.param] : e[camel(f.param)];
    values[f.param] = f.type === 'checkbox' ? value === true : String(value ?? '');
  }
  for (const p of extensionParams) values[p] = json[p] === undefined ? '' : String(json[p]);
  return values;
}

/** The form's values as posted. */
export function postedValues(kind: RecordKind, extensionParams: string[], body: Form): Values {
  const values: Values = {
    [kind.type]: text(body[kind.type]),
    description: text(body.description, 100000),
    slug: text(body.slug).trim(),
    status: text(body.status),
    date: text(body.date).trim(),
    author: text(body.author).trim(),
    image: text(body.image).trim(),
  };
  for (const f of kind.fields) values[f.param] = f.type === 'checkbox' ? body[f.param] !== undefined : text(body[f.param]);
  for (const p of extensionParams) values[p] = text(body[p]).trim();
  return values;
}

/**
 * The write's parameters. Texts and flags are always sent (the form shows them all); the
 * slug, status, author, publication date, image and extension fields only when they differ
 * from the stored record, so that saving a form untouched changes none of them (a trashed
 * record stays in the trash, an image URL is not fetched again); the status also goes with a
 * new publication date.
 */
export function writeInput(kind: RecordKind, extensionParams: string[], values: Values, record: LoadedRecord | null): Form {
  const stored = record ? storedValues(kind, extensionParams, record) : null;
  const changed = (param: string) => values[param] !== '' && (stored === null || values[param] !== stored[param]);
  const input: Form = { [kind.type]: values[kind.type], description: values.description };
  for (const f of kind.fields) input[f.param] = values[f.param];
  if (changed('slug')) input.slug = values.slug;
  // A new date is sent with the status, so that a date ahead schedules a published record (endpoints.md §3 rule 4).
  if (values.status !== '' && (record === null || values.status !== stored?.status || changed('date'))) input.status = values.status;
  if (changed('author')) input.author = values.author;
  if (changed('date')) input.date = sqlDate(String(values.date));
  if (changed('image')) input.image = values.image;
  for (const p of extensionParams) if (stored === null ? values[p] !== '' : values[p] !== stored[p]) input[p] = values[p];
  return input;
}

/** The form errors of a refused write, each on the input of its parameter. */
export function formErrorsOf(kind: RecordKind, extensionParams: string[], err: WpError): FieldError[] {
  const known = new Set([
    kind.type,
    'description',
    'slug',
    'status',
    'date',
    'date_utc',
    'author',
    'image',
    ...kind.fields.map((f) => f.param),
    ...extensionParams,
  ]);
  return formErrors(err, (param) => (known.has(param) ? `f-${param === 'date_utc' ? 'date' : param}` : undefined), 'record-form');
}

/** "Label: " of the field an error is about, for the summary. */
export function labelOf(kind: RecordKind, field: string): string {
  const param = field.replace(/^f-/, '');
  const label =
    param === kind.type
      ? kind.nameLabel
      : (kind.fields.find((f) => f.param === param)?.label ??
        EXTENSION_LABELS[param] ??
        { description: 'Description', slug: 'Slug', status: 'Status', date: 'Publication date', author: 'Author', image: 'Image URL' }[param]);
  return label ? `${label}: ` : '';
}

/** The statuses the actor may choose (auth.md §2: a contributor cannot publish), and the current one. */
export function statusChoices(actor: Actor, current: string): { value: string; label: string }[] {
  const keys = can(actor, 'publish_items') ? ['publish', 'draft', 'pending', 'private'] : ['draft', 'pending'];
  if (current !== '' && current !== 'trash' && !keys.includes(current)) keys.unshift(current);
  return keys.map((k) => ({ value: k, label: STATUS_LABELS[k] ?? k }));
}

/** What differs between the stored record and the values the user saved over a newer version. */
export function conflictRows(kind: RecordKind, extensionParams: string[], record: LoadedRecord, values: Values): ConflictRow[] {
  const stored = storedValues(kind, extensionParams, record);
  const rows: ConflictRow[] = [];
  const labelled: [string, string][] = [
    [kind.type, kind.nameLabel],
    ['description', 'Description'],
    ...kind.fields.map((f): [string, string] => [f.param, f.label]),
    ['slug', 'Slug'],
    ['status', 'Status'],
    ...extensionParams.map((p): [string, string] => [p, EXTENSION_LABELS[p] ?? p]),
  ];
  for (const [param, label] of labelled) {
    if (param === 'slug' && values.slug === '') continue;
    if (stored[param] !== values[param]) rows.push({ label, theirs: shown(stored[param]), yours: shown(values[param]) });
  }
  return rows;
}

export interface LoadedRecord {
  id: number;
  entity: LinkedItemEntity;
  json: Json;
  version: string;
}

export interface ConflictRow {
  label: string;
  theirs: string;
  yours: string;
}

export function isFormError(err: unknown): err is WpError {
  return (
    err instanceof WpError &&
    err.status === 400 &&
    (err.code === REST_INVALID_PARAM || err.code === REST_MISSING_CALLBACK_PARAM || err.code.startsWith('could-not'))
  );
}

export function noRight(kind: RecordKind): ManageRefusal {
  return new ManageRefusal(403, 'Not allowed', `Your role may not add ${kind.plural.toLowerCase()}.`);
}

export function changedMeanwhile(kind: RecordKind, href: string): ManageRefusal {
  return new ManageRefusal(
    412,
    'Changed meanwhile',
    `Someone else changed this ${kind.noun.toLowerCase()} after you opened it, so nothing was done. Open it again (${href}) to see the newest version.`,
  );
}

export function text(value: unknown, max = 10000): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

function shown(value: string | boolean | undefined): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return value ?? '';
}

/** `show_map` → `showMap`: the entity property of an API parameter. */
function camel(param: string): string {
  return param.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A `datetime-local` value (`2026-05-01T18:30`, seconds optional) as the API's `YYYY-MM-DD HH:MM:SS`; other text as given. */
function sqlDate(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(value);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ':00'}` : value;
}
