import type { ChangeKinds } from '../database/change-kinds';
import { appendChanges, backfillChangeLog, ChangeSet } from '../database/change-log';
import { nowUtcSql } from '../common/datetime/clock';
import { Dialect } from '../database/dialect';
import type { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import { bulkTransaction } from '../database/unit-of-work';
import { ListingColumns, listingOf } from '../database/listing-columns';
import { trashedSlug } from '../items';
import { slugify } from '../common/text/slugify';
import { countsAsPublished, EventEntity, EventsRepository, SearchDocumentsThread, searchTexts } from '../events';
import { EventOrganizerEntity, OrganizerEntity, OrganizersRepository } from '../organizers';
import { PostsService } from '../posts';
import { EventTermEntity, TermEntity, Taxonomy, TermsRepository } from '../taxonomies';
import { UsersService } from '../users';
import { VenueEntity, VenuesRepository } from '../venues';
import { EventSpec, OrganizerSpec, SeedOptions, SeedPlan, TermSpec, VenueSpec } from './seed-plan';
import { SeedRepository } from './seed.repository';

/**
 * Items per transaction: each batch allocates its ids and writes its rows and links together.
 * Every commit costs a flush of the full-text index's pending terms (a new segment, merged
 * with the others later) and, on SQLite, a WAL append; 10,000 events (about 15 MB of rows,
 * links and search documents) a commit keep those few.
 */
const BATCH = 10_000;

/**
 * The tables an event's write fills. Seeding an empty calendar loads them with their secondary
 * indexes dropped and builds those once at the end (Dialect.withIndexesDeferred).
 */
const EVENT_TABLES = ['events', 'event_terms', 'event_organizers', 'event_search'];
/** Author of the seeded items when the database has no administrator or editor yet. */
const SEED_AUTHOR_LOGIN = 'calendar-seed';

export interface SeedDependencies {
  db: DataSource;
  posts: PostsService;
  events: EventsRepository;
  venues: VenuesRepository;
  organizers: OrganizersRepository;
  terms: TermsRepository;
  users: UsersService;
  reads: SeedRepository;
  /** The installed change kinds: the change log's rows of what was seeded. */
  kinds: ChangeKinds;
}

/** Reports how far a phase is (a terminal bar in the CLI). */
export interface ProgressSink {
  update(done: number): void;
  finish(): void;
}

export interface SeedSummary {
  seconds: number;
  authorId: number;
  events: { total: number; publish: number; draft: number; trash: number; hidden: number; featured: number; listed: number };
  venues: number;
  organizers: number;
  categories: { created: number; reused: number };
  tags: { created: number; reused: number };
  organizerLinks: number;
  termLinks: number;
}

/** Ids of the plan's venues, organizers and terms, by plan index. */
interface EventLinks {
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
}

/** The database already has events and --force was not given. */
export class SeedRefusedError extends Error {}

/**
 * Writes a SeedPlan into the database through the bulk paths: ids allocated a batch at a time
 * from the shared post sequence, multi-row inserts, one transaction per batch, and the term
 * counts recomputed once at the end (event_terms.published set as the event writes set it).
 */
export class Seeder {
  constructor(
    private readonly d: SeedDependencies,
    private readonly progress: (label: string, total: number) => ProgressSink = () => ({ update: () => undefined, finish: () => undefined }),
  ) {}

  async run(options: SeedOptions, force = false): Promise<SeedSummary> {
    const started = Date.now();
    const existing = await this.d.reads.countEvents();
    if (existing > 0 && !force) {
      throw new SeedRefusedError(`The database already has ${existing.toLocaleString('en-US')} events; seed adds to them only with --force.`);
    }
    return Dialect.of(this.d.db).withBulkLoadCache(this.d.db, () => this.load(options, started, existing === 0));
  }

  /** `fresh`: no events yet, so their tables' indexes may be built once after the load. */
  private async load(options: SeedOptions, started: number, fresh: boolean): Promise<SeedSummary> {
    const plan = new SeedPlan(options);
    const authorId = await this.author();
    const categories = await this.seedTerms('category', plan.categories());
    const tags = await this.seedTerms('tag', plan.tags());
    const venueIds = await this.seedLinked('venue', plan.venues(), this.d.venues, (s, id, slug) => venueRow(s, id, slug, authorId));
    const organizerIds = await this.seedLinked('organizer', plan.organizers(), this.d.organizers, (s, id, slug) => organizerRow(s, id, slug, authorId));

    const summary: SeedSummary = {
      seconds: 0,
      authorId,
      events: { total: 0, publish: 0, draft: 0, trash: 0, hidden: 0, featured: 0, listed: 0 },
      venues: venueIds.length,
      organizers: organizerIds.length,
      categories: { created: categories.created, reused: categories.ids.length - categories.created },
      tags: { created: tags.created, reused: tags.ids.length - tags.created },
      organizerLinks: 0,
      termLinks: 0,
    };
    const events = () => this.seedEvents(plan, { venueIds, organizerIds, categoryIds: categories.ids, tagIds: tags.ids }, authorId, summary);
    if (fresh) await Dialect.of(this.d.db).withIndexesDeferred(this.d.db, EVENT_TABLES, events);
    else await events();
    // Planners learn the new row counts (and running servers drop their read caches) before the
    // recount: with the statistics of the empty tables, MariaDB counted a million events' term
    // links through the listing index, which lacks `published` (a row read per link, minutes),
    // instead of the covering ix_event_terms_term.
    await this.d.reads.analyze([...EVENT_TABLES, 'venues', 'organizers', 'terms', 'posts']);
    await bulkTransaction(this.d.db, (tx) => this.d.terms.recount(tx, [...new Set([...categories.ids, ...tags.ids])]));
    // The change log (sync.md): a row for every new item, and for the terms whose counts moved;
    // the rows move every running server's caches too.
    await bulkTransaction(this.d.db, async (tx) => {
      const now = nowUtcSql();
      await backfillChangeLog(tx, this.d.kinds, now);
      const terms = new ChangeSet(this.d.kinds);
      for (const id of categories.ids) terms.record('category', id);
      for (const id of tags.ids) terms.record('tag', id);
      await appendChanges(tx, Dialect.of(this.d.db).kind, terms, now);
    });
    summary.seconds = (Date.now() - started) / 1000;
    return summary;
  }

  /** The first administrator or editor, else a new editor made for the purpose. */
  private async author(): Promise<number> {
    const [first] = await this.d.reads.publisherIds();
    if (first !== undefined) return first;
    const { user } = await this.d.users.create(SEED_AUTHOR_LOGIN, 'editor');
    return user.id;
  }

  /**
   * Categories or tags, a level of the tree at a time (children need their parent's id). A term
   * that already exists with the same name under the same parent is reused, as event writes
   * reuse terms named in them.
   */
  private async seedTerms(taxonomy: Taxonomy, specs: TermSpec[]): Promise<{ ids: number[]; created: number }> {
    const ids: number[] = new Array<number>(specs.length);
    let created = 0;
    await bulkTransaction(this.d.db, async (tx) => {
      const existing = await this.d.terms.findAll(taxonomy, tx);
      const known = new Map(existing.map((t) => [termKey(t.parentId, t.name), t.id]));
      const slugs = new SlugRegistry(existing.map((t) => t.slug));
      const depths = [...new Set(specs.map((s) => s.depth))].sort((a, b) => a - b);
      for (const depth of depths) {
        const fresh: { index: number; row: Omit<TermEntity, 'id' | 'nameKey'> }[] = [];
        specs.forEach((spec, index) => {
          if (spec.depth !== depth) return;
          const parentId = spec.parent === null ? 0 : ids[spec.parent];
          const reuse = known.get(termKey(parentId, spec.name));
          if (reuse !== undefined) ids[index] = reuse;
          else
            fresh.push({
              index,
              row: { taxonomy, name: spec.name, slug: slugs.take(slugify(spec.name), taxonomy), description: spec.description, parentId, count: 0 },
            });
        });
        const inserted = await this.d.terms.insertMany(
          fresh.map((f) => f.row),
          tx,
        );
        inserted.forEach((term, i) => (ids[fresh[i].index] = term.id));
        created += inserted.length;
      }
    });
    return { ids, created };
  }

  /** Venues or organizers in batches; returns their ids in plan order. */
  private async seedLinked<S, E>(
    kind: 'venue' | 'organizer',
    specs: (S & { name: string })[],
    repository: { insertMany(rows: E[], tx: Tx): Promise<void> },
    toRow: (spec: S, id: number, slug: string) => E,
  ): Promise<number[]> {
    const slugs = new SlugRegistry(await this.d.reads.liveSlugs(kind));
    const bar = this.progress(kind === 'venue' ? 'venues' : 'organizers', specs.length);
    const ids: number[] = [];
    for (let i = 0; i < specs.length; i += BATCH) {
      const batch = specs.slice(i, i + BATCH);
      await bulkTransaction(this.d.db, async (tx) => {
        const allocated = await this.d.posts.allocateMany(kind, batch.length, tx);
        const rows = batch.map((spec, k) => toRow(spec, allocated[k], slugs.take(slugify(spec.name), String(allocated[k]))));
        await repository.insertMany(rows, tx);
        ids.push(...allocated);
      });
      bar.update(ids.length);
    }
    bar.finish();
    return ids;
  }

  /**
   * The events, a batch (and a transaction) at a time, counted into the summary. The search
   * documents of each batch are made on a thread of their own while the previous batch is
   * written (SearchDocumentsThread).
   */
  private async seedEvents(plan: SeedPlan, links: EventLinks, authorId: number, summary: SeedSummary): Promise<void> {
    const slugs = new SlugRegistry(await this.d.reads.liveSlugs('event'));
    const bar = this.progress('events', plan.options.events);
    const thread = new SearchDocumentsThread();
    let ahead: { batch: EventSpec[]; documents: Promise<string[]> } | null = null;
    const write = async (next: EventSpec[]) => {
      const previous = ahead;
      ahead = next.length > 0 ? { batch: next, documents: thread.documents(next.map(searchTexts)) } : null;
      if (previous === null) return;
      await this.writeEvents(previous.batch, await previous.documents, links, slugs, authorId, summary);
      bar.update(summary.events.total);
    };
    try {
      let batch: EventSpec[] = [];
      for (const spec of plan.events()) {
        batch.push(spec);
        if (batch.length === BATCH) {
          await write(batch);
          batch = [];
        }
      }
      await write(batch);
      await write([]);
    } finally {
      await thread.stop();
    }
    bar.finish();
  }

  private async writeEvents(
    batch: EventSpec[],
    documents: string[],
    links: EventLinks,
    slugs: SlugRegistry,
    authorId: number,
    summary: SeedSummary,
  ): Promise<void> {
    await bulkTransaction(this.d.db, async (tx) => {
      const ids = await this.d.posts.allocateMany('event', batch.length, tx);
      const events: EventEntity[] = [];
      const organizers: EventOrganizerEntity[] = [];
      const terms: EventTermEntity[] = [];
      batch.forEach((spec, k) => {
        const id = ids[k];
        const slug = slugs.take(slugify(spec.title), String(id));
        const event = eventRow(spec, id, spec.status === 'trash' ? trashedSlug(slug) : slug, authorId, spec.venue === null ? null : links.venueIds[spec.venue]);
        events.push(event);
        // The links carry the event's listing columns (ListingColumns), as ListingSync keeps them.
        const listing = listingOf(event);
        organizers.push(...organizerLinkRows(spec, id, links, listing));
        terms.push(...termLinkRows(spec, id, links, listing));
      });
      await this.d.events.insertMany(events, tx, documents);
      await this.d.events.insertOrganizerLinks(organizers, tx);
      await this.d.terms.insertEventTerms(terms, tx);
      summary.organizerLinks += organizers.length;
      summary.termLinks += terms.length;
    });
    for (const spec of batch) {
      const e = summary.events;
      e.total++;
      e[spec.status]++;
      if (spec.hideFromListings) e.hidden++;
      if (spec.featured) e.featured++;
      if (spec.status === 'publish' && !spec.hideFromListings) e.listed++;
    }
  }
}

const termKey = (parentId: number, name: string) => `${parentId}/${name.toLowerCase()}`;

/**
 * Slugs handed out without asking the database for each one (spec endpoints.md §4.6: `base`,
 * `base-2`, `base-3`, … when taken), starting from those already in use.
 */
export class SlugRegistry {
  private readonly taken: Set<string>;
  private readonly nextSuffix = new Map<string, number>();

  constructor(existing: Iterable<string>) {
    this.taken = new Set(existing);
  }

  take(base: string, fallback: string): string {
    const root = base || fallback;
    let candidate = root;
    let suffix = this.nextSuffix.get(root) ?? 2;
    while (this.taken.has(candidate)) candidate = `${root}-${suffix++}`;
    this.nextSuffix.set(root, suffix);
    this.taken.add(candidate);
    return candidate;
  }
}

function eventRow(s: EventSpec, id: number, slug: string, authorId: number, venueId: number | null): EventEntity {
  return Object.assign(new EventEntity(), {
    id,
    authorId,
    status: s.status,
    statusBeforeTrash: s.status === 'trash' ? 'publish' : null,
    dateUtc: s.dateUtc,
    modifiedUtc: s.modifiedUtc,
    title: s.title,
    description: s.description,
    excerpt: s.excerpt,
    slug,
    ...s.timing,
    cost: JSON.stringify(s.cost),
    website: s.website,
    showMap: s.showMap,
    showMapLink: s.showMapLink,
    hideFromListings: s.hideFromListings,
    sticky: s.sticky,
    featured: s.featured,
    imageId: null,
    venueId,
    parentId: 0,
  });
}

/** The event's event_organizers rows (the one place they are built: columns added to the table are set here). */
function organizerLinkRows(spec: EventSpec, eventId: number, links: EventLinks, listing: ListingColumns): EventOrganizerEntity[] {
  return spec.organizers.map((o, position) => ({ eventId, organizerId: links.organizerIds[o], position, ...listing }));
}

/** The event's event_terms rows, categories then tags (the one place they are built: columns added to the table are set here). */
function termLinkRows(spec: EventSpec, eventId: number, links: EventLinks, listing: ListingColumns): EventTermEntity[] {
  const published = countsAsPublished(spec.status);
  return [...spec.categories.map((c) => links.categoryIds[c]), ...spec.tags.map((t) => links.tagIds[t])].map((termId) => ({
    eventId,
    termId,
    published,
    ...listing,
  }));
}

function venueRow(s: VenueSpec, id: number, slug: string, authorId: number): VenueEntity {
  const { zone: _zone, ...fields } = s;
  return Object.assign(new VenueEntity(), {
    ...fields,
    id,
    slug,
    authorId,
    status: 'publish',
    statusBeforeTrash: null,
    showMap: true,
    showMapLink: true,
    imageId: null,
  });
}

function organizerRow(s: OrganizerSpec, id: number, slug: string, authorId: number): OrganizerEntity {
  return Object.assign(new OrganizerEntity(), { ...s, id, slug, authorId, status: 'publish', statusBeforeTrash: null, imageId: null });
}
