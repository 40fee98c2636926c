import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { currentLinks } from '../common/http/api-links';
import type { NameList } from '../common/params';
import { slugify } from '../common/text/slugify';
import { AppConfig } from '../config/app-config';
import { OUTER, type Reader, type Tx } from '../database/tx';
import { EventTermEntity } from './entities/event-term.entity';
import { Taxonomy } from './entities/term.entity';
import { TermsRepository } from './terms.repository';
import { presentTerm, TermJson } from './term.presenter';
import { TERM_PARAM, TermWrites } from './term-writes';

/**
 * The categories and tags of events (spec resources.md §4): the terms an event write or an
 * event-list filter names, the links between events and terms, and the counts those links
 * keep (written with the event, in its transaction; never computed at read time).
 */
@Injectable()
export class EventTerms {
  constructor(
    private readonly terms: TermsRepository,
    private readonly writes: TermWrites,
    private readonly config: AppConfig,
  ) {}

  /** Replaces the event's categories or tags; recounts what changed. Runs in the caller's transaction. */
  /** `isNew`: the event was created in this transaction (it has no terms to replace). */
  async assignToEvent(tx: Tx, eventId: number, taxonomy: Taxonomy, termIds: number[], published: boolean, isNew = false): Promise<void> {
    const { added, removed } = await this.terms.replaceEventTerms(tx, eventId, taxonomy, [...new Set(termIds)], published, isNew);
    if (!published) return;
    await this.terms.adjustCounts(tx, added, 1);
    await this.terms.adjustCounts(tx, removed, -1);
  }

  /**
   * New events (no terms yet) all get these terms, as assignToEvent for each would give them:
   * the links in multi-row INSERTs, the counts raised once by the number of published events.
   */
  async assignToNewEvents(tx: Tx, events: { id: number; published: boolean }[], termIds: number[]): Promise<void> {
    const ids = [...new Set(termIds)];
    const links = events.flatMap((e) => ids.map((termId) => Object.assign(new EventTermEntity(), { eventId: e.id, termId, published: e.published })));
    await this.terms.insertEventTerms(links, tx);
    await this.terms.adjustCounts(tx, ids, events.filter((e) => e.published).length);
  }

  /** The event became (un)published (or was trashed): its terms' counts follow. */
  async eventPublicationChanged(tx: Tx, eventId: number, published: boolean): Promise<void> {
    await this.terms.adjustCounts(tx, await this.terms.setEventPublished(tx, eventId, published), published ? 1 : -1);
  }

  /** The event is being deleted for good: its published assignments leave the counts, then every assignment goes. */
  async eventRemoved(tx: Tx, eventId: number): Promise<void> {
    await this.eventPublicationChanged(tx, eventId, false);
    await this.terms.removeEventTerms(tx, eventId);
  }

  /**
   * Event-list filter values (spec endpoints.md §4.1.3): each item a slug, else an id, of an
   * existing term; categories include their descendants. null when any item is unknown. A comma
   * list that is as a whole the name of a term names that term, as in event writes (§4.5).
   */
  async resolveFilter(taxonomy: Taxonomy, list: NameList): Promise<number[] | null> {
    const named = await this.namedWhole(taxonomy, list, OUTER);
    const ids = named !== undefined ? [named] : await this.filterIds(taxonomy, list.items);
    if (ids === null) return null;
    return taxonomy === 'category' ? this.terms.withDescendants(taxonomy, ids) : [...new Set(ids)];
  }

  /**
   * Categories/tags named in an event write (spec endpoints.md §4.5): numeric items are ids
   * (unknown ones skipped); other items match a slug or a name, or create a new term; a comma
   * string that is as a whole the name of a term names only that term.
   * Runs in the event's transaction; no permission beyond writing the event is needed.
   */
  async resolveForEventWrite(tx: Tx, taxonomy: Taxonomy, list: NameList, actor: Actor | null): Promise<number[]> {
    // Inside the event's transaction: a pooled query here could wait forever for a connection.
    const named = await this.namedWhole(taxonomy, list, tx);
    if (named !== undefined) return [named];
    const { items } = list;
    const numeric = items
      .filter((i) => /^\d+$/.test(i))
      .map(Number)
      .filter(Number.isSafeInteger);
    const existing = await this.terms.existingIds(taxonomy, numeric, tx);
    const names = items
      .filter((i) => !/^\d+$/.test(i))
      .map((n) => this.writes.cleanName(actor, n, false, TERM_PARAM[taxonomy]))
      .filter((n) => n !== '');
    const found = await this.terms.findBySlugsOrNames(taxonomy, names.map((n) => slugify(n)).filter(Boolean), names, tx);
    const ids: number[] = [];
    for (const item of items) {
      if (/^\d+$/.test(item)) {
        if (existing.has(Number(item))) ids.push(Number(item));
        continue;
      }
      const name = this.writes.cleanName(actor, item, false, TERM_PARAM[taxonomy]);
      if (name === '') continue;
      const match = found.find((t) => t.slug === slugify(name) && slugify(name) !== '') ?? found.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (match) {
        ids.push(match.id);
        continue;
      }
      const term = await this.writes.createOrReuse(tx, { taxonomy, name, description: '', parentId: 0, count: 0 });
      found.push(term);
      ids.push(term.id);
    }
    return [...new Set(ids)];
  }

  async termsOfEvents(eventIds: number[]): Promise<Map<number, TermJson[]>> {
    const byEvent = await this.terms.termsOfEvents(eventIds);
    const all = [...byEvent.values()].flat();
    const known = await this.terms.ancestors(all);
    const out = new Map<number, TermJson[]>();
    const links = currentLinks(this.config.baseUrl);
    for (const [eventId, terms] of byEvent)
      out.set(
        eventId,
        terms.map((t) => presentTerm(t, known, this.config, links)),
      );
    return out;
  }

  /** Filter items by slug first, then by id, then by name (spec endpoints.md §4.1 and §4.1.3); null when one is unknown. */
  private async filterIds(taxonomy: Taxonomy, items: string[]): Promise<number[] | null> {
    const byText = await this.terms.findBySlugsOrNames(taxonomy, items, items, OUTER);
    const numeric = items
      .filter((i) => /^\d+$/.test(i))
      .map(Number)
      .filter(Number.isSafeInteger);
    const byId = await this.terms.existingIds(taxonomy, numeric, OUTER);
    const ids: number[] = [];
    for (const item of items) {
      const id =
        byText.find((t) => t.slug === item)?.id ??
        (/^\d+$/.test(item) && byId.has(Number(item)) ? Number(item) : undefined) ??
        byText.find((t) => t.name.toLowerCase() === item.toLowerCase())?.id;
      if (id === undefined) return null;
      ids.push(id);
    }
    return ids;
  }

  /**
   * The term a comma-separated string names as a whole (spec endpoints.md §4.5): the one whose
   * name is the trimmed string (case-insensitively, as names are compared at one level; the
   * oldest when categories at different levels share it). Undefined for arrays and for strings
   * that name no term, whose items are then resolved one by one.
   */
  private async namedWhole(taxonomy: Taxonomy, list: NameList, reader: Reader): Promise<number | undefined> {
    if (list.whole === undefined || list.whole === '') return undefined;
    const [term] = await this.terms.findBySlugsOrNames(taxonomy, [], [list.whole], reader);
    return term?.id;
  }
}
