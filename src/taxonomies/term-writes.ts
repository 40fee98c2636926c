import { Injectable } from '@nestjs/common';
import { Actor, can } from '../common/auth';
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import { slugify, SLUG_MAX_LENGTH, writeUnderFreeSlug } from '../common/text/slugify';
import type { Tx } from '../database/tx';
import { TermEntity, Taxonomy } from './entities/term.entity';
import { TermsRepository } from './terms.repository';
import { duplicateTermSlug, termExists } from './taxonomies.errors';
import { TERM_TEXT } from './term-text';

/**
 * Writing one term row: its name and description cleaned and fitted to their columns, its name
 * free at its level, its slug explicit and free or the first free one made from its name. Shared
 * by the term routes and by event writes that name new terms.
 */
@Injectable()
export class TermWrites {
  constructor(private readonly terms: TermsRepository) {}

  /** term_exists (with the existing term's id) when the name is used at that level. */
  async assertNameFree(tx: Tx, taxonomy: Taxonomy, parentId: number, name: string, exceptId?: number): Promise<void> {
    const existing = await this.terms.findSiblingByName(taxonomy, parentId, name, exceptId, tx);
    if (existing) throw termExists(existing.id);
  }

  /**
   * Writes the term under an explicit slug, which must be free (spec endpoints.md §6.3), or
   * under the first free slug generated from its name; the unique index on (kind, slug) settles
   * races. A name taken at the level surfaces as the database's unique-key error.
   */
  async writeTerm(tx: Tx, term: Partial<TermEntity> & Pick<TermEntity, 'taxonomy' | 'name'>, given: string | undefined): Promise<TermEntity> {
    const explicit = given === undefined ? '' : slugify(given).slice(0, SLUG_MAX_LENGTH);
    let saved: TermEntity | undefined;
    const write = async (slug: string) => {
      saved = await this.terms.save({ ...term, slug }, tx);
    };
    if (explicit !== '') {
      if (await this.terms.slugTaken(term.taxonomy, explicit, term.id, tx)) throw duplicateTermSlug();
      await write(explicit).catch((err: unknown) => {
        throw this.terms.isSlugConflict(err) ? duplicateTermSlug() : err;
      });
    } else {
      const base = (slugify(term.name) || term.taxonomy).slice(0, SLUG_MAX_LENGTH);
      const slugs = await this.terms.slugsLike(term.taxonomy, base, term.id, tx);
      await writeUnderFreeSlug(base, slugs, write, (err) => this.terms.isSlugConflict(err));
    }
    return saved as TermEntity;
  }

  /** A term named in an event write: created, or, when a concurrent write created it first, that one. */
  async createOrReuse(tx: Tx, term: Omit<TermEntity, 'id' | 'slug' | 'nameKey'>): Promise<TermEntity> {
    try {
      return await this.writeTerm(tx, term, undefined);
    } catch (err) {
      if (!this.terms.isNameConflict(err)) throw err;
      const winner = await this.terms.findSiblingByName(term.taxonomy, term.parentId, term.name, undefined, tx);
      if (!winner) throw err;
      return winner;
    }
  }

  /** Names are plain text for callers without unfiltered HTML (spec README §8). */
  /** `param`: the parameter that gave the name (`name`, or `categories`/`tags` of an event write). */
  cleanName(actor: Actor | null, name: string, required = true, param = 'name'): string {
    const text = cleanTextField(TERM_TEXT, 'name', name, can(actor, 'unfiltered_html')).trim();
    if (text === '' && required) throw invalidParams({ name: PARAM_MESSAGES.text });
    return fitting('name', text, param);
  }

  cleanDescription(actor: Actor | null, description: string): string {
    return fitting('description', cleanTextField(TERM_TEXT, 'description', description, can(actor, 'unfiltered_html')));
  }
}

/** `text` when it fits the column of the term field, else 400 naming the field. */
function fitting(field: 'name' | 'description', text: string, param: string = field): string {
  const overflow = columnOverflow(TERM_TEXT, field, text);
  if (overflow) throw invalidParams({ [param]: overflow });
  return text;
}

/** The event-write parameter that names terms of each kind. */
export const TERM_PARAM: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };
