import { REST_INVALID_PARAM, REST_MISSING_CALLBACK_PARAM, WpError } from '../common/errors';
import type { TermJson } from '../taxonomies';
import { type FieldError, formErrors } from './form-errors';

// The category and tag pages' form (editing.md): the values posted or stored, the category tree
// and the parent choices drawn from it, and the write's refusals put beside their fields.

type Form = Record<string, unknown>;

/** A category in the tree: its depth, for the indent. */
export interface TreeRow extends TermJson {
  depth: number;
}

/** The categories as a tree in reading order: each after its parent, its children after it (a parent not among them counts as the top level). */
export function categoryTree(all: TermJson[]): TreeRow[] {
  const children = new Map<number, TermJson[]>();
  const ids = new Set(all.map((t) => t.id));
  for (const t of all) {
    const parent = t.parent !== undefined && ids.has(t.parent) ? t.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), t]);
  }
  const rows: TreeRow[] = [];
  const seen = new Set<number>();
  const walk = (parent: number, depth: number) => {
    for (const t of children.get(parent) ?? []) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      rows.push({ ...t, depth });
      walk(t.id, depth + 1);
    }
  };
  walk(0, 0);
  return rows;
}

/** The parent choices: the top level, then the tree without `exclude` and what lies under it. */
export function parentChoices(rows: TreeRow[], exclude?: number): { value: string; label: string }[] {
  const out = [{ value: '0', label: '(none: top level)' }];
  let skipDepth: number | null = null;
  for (const row of rows) {
    if (skipDepth !== null && row.depth > skipDepth) continue;
    skipDepth = null;
    if (row.id === exclude) {
      skipDepth = row.depth;
      continue;
    }
    out.push({ value: String(row.id), label: `${'— '.repeat(row.depth)}${row.name}` });
  }
  return out;
}

export type TermValues = { name: string; slug: string; description: string; parent: string };

export function valuesOf(body: Form): TermValues {
  const text = (v: unknown, max = 10000) => (typeof v === 'string' ? v.slice(0, max) : '');
  return { name: text(body.name), slug: text(body.slug).trim(), description: text(body.description, 100000), parent: text(body.parent).trim() || '0' };
}

export function storedValues(term: TermJson): TermValues {
  return { name: term.name, slug: term.slug, description: term.description, parent: String(term.parent ?? 0) };
}

export function isFormError(err: unknown): err is WpError {
  return (
    err instanceof WpError && err.status === 400 && [REST_INVALID_PARAM, REST_MISSING_CALLBACK_PARAM, 'term_exists', 'duplicate_term_slug'].includes(err.code)
  );
}

const LABELS: Record<string, string> = { name: 'Name', slug: 'Slug', description: 'Description', parent: 'Parent' };

/** The write path's problems as the form shows them; a taken name or slug is a message beside that field. */
export function errorsOf(err: WpError, prefix: 'add' | 'edit'): FieldError[] {
  if (err.code === 'term_exists') return [{ field: `${prefix}-name`, message: 'Another term at this level already has this name.' }];
  if (err.code === 'duplicate_term_slug') return [{ field: `${prefix}-slug`, message: err.message }];
  return formErrors(err, (param) => (param in LABELS ? `${prefix}-${param}` : undefined), `${prefix}-form`);
}

export function summaryOf(errors: FieldError[]): FieldError[] {
  return errors.map((e) => {
    const label = LABELS[e.field.replace(/^(add|edit)-/, '')];
    return { field: e.field, message: label ? `${label}: ${e.message}` : e.message };
  });
}
