import { Injectable } from '@nestjs/common';
import { Actor, can, canDelete, canEdit, canRead, type OwnedItem } from '../common/auth';
import { forbidden, WpError } from '../common/errors';
import type { NameList } from '../common/params';
import {
  EventPresentation,
  EventDeleter,
  EventReader,
  EventWriter,
  ListEventsQueryDto,
  UpdateEventDto,
  type EditingListOptions,
  type EventListOrder,
  FORM_ORIGIN,
} from '../events';
import { UsersService } from '../users';
import { STATUS_TABS } from './form-input';

type Json = Record<string, unknown>;

/** The tabs of the events list (editing.md §2), in their order: `all` is every status but the trash. */
export const EVENT_TABS = STATUS_TABS;
export type EventTab = (typeof EVENT_TABS)[number]['key'];

/** The list's rows per page. */
export const EVENTS_PER_PAGE = 20;

/**
 * The editing list's whole date range: the list reads every event unless the editor asks for
 * dates (the API's default window, yesterday to two years ahead, suits readers, not editors).
 */
const EVER = { start_date: '1900-01-01', end_date: '2999-12-31' };

/** What the events list was asked for: the query string, checked. */
export interface EventsListQuery {
  tab: EventTab;
  search: string;
  category?: number;
  venue?: number;
  organizer?: number;
  from: string;
  to: string;
  /** `submitted`: by publication date, oldest first (the review queue's order; the list's own form offers start and modified). */
  sort: 'start' | 'modified' | 'submitted';
  direction: 'asc' | 'desc';
  page: number;
}

/** One row of the list. */
export interface EventRow {
  id: number;
  title: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  timezone: string;
  zoneAbbr: string;
  venue: string;
  categories: string[];
  author: string;
  authorId: number;
  status: string;
  /** The last change, in the site's zone. */
  modified: string;
  /** The publication date (`date`, in the site's zone): for a pending event, when it was sent. */
  date: string;
}

/** A bulk action of the list, as its button names it. */
export type BulkAction = 'publish' | 'trash' | 'restore' | 'delete';
export const BULK_ACTIONS: readonly BulkAction[] = ['publish', 'trash', 'restore', 'delete'];

/** What a bulk action did to one event. */
export interface BulkOutcome {
  id: number;
  title: string;
  done: boolean;
  /** What happened, or why it was refused, in plain words. */
  message: string;
}

/**
 * The events list of the editing pages (editing.md §2): the API's list service (EventReader,
 * the same grammar, indexes and caches) with the editing orders and hidden events included,
 * the tab counts from the lists' cache of totals, and bulk actions through the API's write
 * path with the signed-in actor.
 */
@Injectable()
export class EventsListService {
  constructor(
    private readonly reader: EventReader,
    private readonly presentation: EventPresentation,
    private readonly writer: EventWriter,
    private readonly deleter: EventDeleter,
    private readonly users: UsersService,
  ) {}

  /** The list's default query with some parameters given (the overview's short lists). */
  static query(given: Partial<EventsListQuery>): EventsListQuery {
    return { tab: 'all', search: '', from: '', to: '', sort: 'start', direction: 'asc', page: 1, ...given };
  }

  /** The query string as the list reads it; anything unknown falls back to the default. */
  parseQuery(raw: Record<string, unknown>): EventsListQuery {
    const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 200) : '');
    const id = (v: unknown) => (/^\d{1,9}$/.test(text(v)) && Number(text(v)) > 0 ? Number(text(v)) : undefined);
    const date = (v: unknown) => (/^\d{4}-\d{2}-\d{2}$/.test(text(v)) ? text(v) : '');
    const status = text(raw.status);
    const tab = (EVENT_TABS.find((t) => t.key === status)?.key ?? 'all') as EventTab;
    const page = Number(text(raw.page));
    return {
      tab,
      search: text(raw.search),
      category: id(raw.category),
      venue: id(raw.venue),
      organizer: id(raw.organizer),
      from: date(raw.from),
      to: date(raw.to),
      sort: text(raw.sort) === 'modified' ? 'modified' : 'start',
      direction: text(raw.order) === 'desc' ? 'desc' : 'asc',
      page: Number.isSafeInteger(page) && page > 0 && page < 100000 ? page : 1,
    };
  }

  /** The tab counts for this editor: each status over every date, without the search and filters (cached per data version). */
  async counts(actor: Actor): Promise<Record<EventTab, number>> {
    const counts = {} as Record<EventTab, number>;
    for (const tab of EVENT_TABS) counts[tab.key] = await this.count(actor, tab.key);
    return counts;
  }

  /** One tab's count (counts), from the same cache of totals. */
  async count(actor: Actor, tab: EventTab): Promise<number> {
    const q = this.apiQuery({ tab, search: '', from: '', to: '', sort: 'start', direction: 'asc', page: 1 });
    return this.reader.count(actor, q, q as unknown as Json, { listHidden: true });
  }

  /** One page of the list as this editor may read it, with its total. */
  async page(actor: Actor, query: EventsListQuery, perPage = EVENTS_PER_PAGE): Promise<{ rows: EventRow[]; total: number; pages: number }> {
    const q = this.apiQuery(query);
    q.page = query.page;
    q.per_page = perPage;
    let listed;
    try {
      listed = await this.reader.list(actor, q, q as unknown as Json, this.editing(query));
    } catch (err) {
      // A page past the last, or a filter naming what no longer exists: an empty list, not an error page.
      if (err instanceof WpError && err.status < 500) return { rows: [], total: 0, pages: 0 };
      throw err;
    }
    const body = JSON.parse(listed.body.bytes.toString()) as { events: Json[] };
    return { rows: await this.rows(body.events), total: listed.total, pages: listed.totalPages };
  }

  /** Events by id as rows, those this editor may not read left out (the bulk pages name only what the editor may see). */
  async rowsById(actor: Actor, ids: number[]): Promise<EventRow[]> {
    const items = await this.reader.listedItems(ids);
    const readable = items.filter((item) => canRead(actor, { authorId: Number(item.author), status: String(item.status), statusBeforeTrash: null }));
    return this.rows(readable);
  }

  /** The list's parameters in the API's grammar. */
  private apiQuery(query: Omit<EventsListQuery, 'category' | 'venue' | 'organizer'> & Partial<EventsListQuery>): ListEventsQueryDto {
    const q = new ListEventsQueryDto();
    if (query.tab !== 'all') q.status = [query.tab];
    // Whole days in the site's zone: from the start of `from` to the end of `to`.
    q.start_date = query.from || EVER.start_date;
    q.end_date = query.to || EVER.end_date;
    if (query.search !== '') q.search = query.search;
    if (query.category !== undefined) q.categories = { items: [String(query.category)] } satisfies NameList;
    if (query.venue !== undefined) q.venue = [query.venue];
    if (query.organizer !== undefined) q.organizer = [query.organizer];
    return q;
  }

  private editing(query: EventsListQuery): EditingListOptions {
    if (query.sort === 'submitted') return { listHidden: true, order: 'date-asc' };
    const order: EventListOrder | undefined =
      query.sort === 'modified' ? (query.direction === 'asc' ? 'modified-asc' : 'modified-desc') : query.direction === 'desc' ? 'start-desc' : undefined;
    return { listHidden: true, order };
  }

  private async rows(items: Json[]): Promise<EventRow[]> {
    const authorIds = [...new Set(items.map((item) => Number(item.author)))];
    const logins = new Map<number, string>();
    for (const id of authorIds) {
      const user = await this.users.findById(id);
      logins.set(id, user?.login ?? `user ${id}`);
    }
    return items.map((item) => {
      const venue = item.venue as Json | unknown[];
      const categories = (item.categories as Json[] | undefined) ?? [];
      return {
        id: Number(item.id),
        title: String(item.title ?? ''),
        startDate: String(item.start_date ?? ''),
        endDate: String(item.end_date ?? ''),
        allDay: item.all_day === true,
        timezone: String(item.timezone ?? ''),
        zoneAbbr: String(item.timezone_abbr ?? ''),
        venue: Array.isArray(venue) ? '' : String(venue.venue ?? ''),
        categories: categories.map((c) => String(c.name ?? '')),
        author: logins.get(Number(item.author)) ?? '',
        authorId: Number(item.author),
        status: String(item.status ?? ''),
        modified: String(item.modified ?? '').slice(0, 16),
        date: String(item.date ?? '').slice(0, 16),
      };
    });
  }

  /**
   * A bulk action on each event, one at a time, through the API's write path as this editor:
   * what the API refuses is refused here, and said per event. Publishing is the API's status
   * write (a contributor's becomes a submission for review); restoring gives the event back the
   * status it had before the trash (beyond.md #2: a status write on a trashed item); deleting is
   * the API's `force`.
   */
  async apply(actor: Actor, action: BulkAction, ids: number[]): Promise<BulkOutcome[]> {
    const known = new Map((await this.rowsById(actor, ids)).map((row) => [row.id, row]));
    const outcomes: BulkOutcome[] = [];
    for (const id of ids) {
      const row = known.get(id);
      const title = row?.title || `Event ${id}`;
      if (!row) {
        outcomes.push({ id, title, done: false, message: 'Not found, or not an event you may see.' });
        continue;
      }
      try {
        outcomes.push({ id, title, done: true, message: await this.applyOne(actor, action, row) });
      } catch (err) {
        if (!(err instanceof WpError)) throw err;
        outcomes.push({ id, title, done: false, message: refusal(err, action) });
      }
    }
    return outcomes;
  }

  private async applyOne(actor: Actor, action: BulkAction, row: EventRow): Promise<string> {
    switch (action) {
      case 'publish': {
        if (row.status === 'trash') throw new WpError('manage_in_trash', 'It is in the trash: restore it first.', 409);
        if (row.status === 'publish') return this.unchanged(canEdit(actor, owned(row)), 'Already published.');
        const saved = await this.writer.updateById(
          actor,
          row.id,
          Object.assign(new UpdateEventDto(), { status: 'publish' }),
          undefined,
          { status: 'publish' },
          FORM_ORIGIN,
        );
        const status = statusOf(saved);
        if (status === 'pending') return 'Submitted for review.';
        return status === 'future' ? 'Scheduled.' : 'Published.';
      }
      case 'trash':
        if (row.status === 'trash') return this.unchanged(canDelete(actor, owned(row)), 'Already in the trash.');
        await this.deleter.removeById(actor, row.id, false, undefined, {}, FORM_ORIGIN);
        return 'Moved to the trash.';
      case 'restore':
        if (row.status !== 'trash') throw new WpError('manage_not_in_trash', 'It is not in the trash.', 409);
        {
          // As the event form and the venues' and organizers' pages restore: to the status it had before the trash.
          const before = (await this.presentation.requireEvent(row.id)).statusBeforeTrash ?? 'draft';
          const saved = await this.writer.updateById(
            actor,
            row.id,
            Object.assign(new UpdateEventDto(), { status: before }),
            undefined,
            { status: before },
            FORM_ORIGIN,
          );
          return `Restored (${STATUS_WORDS[statusOf(saved)] ?? statusOf(saved)}).`;
        }
      case 'delete':
        await this.deleter.removeById(actor, row.id, true, undefined, { force: true }, FORM_ORIGIN);
        return 'Deleted permanently.';
    }
  }

  /** Nothing to change, when the editor would have been allowed to: else the write path's refusal. */
  private unchanged(allowed: boolean, message: string): string {
    if (!allowed) throw forbidden(true);
    return message;
  }

  /** The button's text for publishing: a contributor's publish is a submission (editing.md §2). */
  static publishLabel(actor: Actor): string {
    return can(actor, 'publish_items') ? 'Publish' : 'Submit for review';
  }
}

/** The row as the rights see it (auth.md §2); the list shows a due scheduled event as published already. */
/** A status as the list's tabs name it. */
const STATUS_WORDS: Record<string, string> = { publish: 'published', future: 'scheduled', draft: 'draft', pending: 'pending review', private: 'private' };

function owned(row: EventRow): OwnedItem {
  return { authorId: row.authorId, status: row.status, statusBeforeTrash: null };
}

function statusOf(saved: unknown): string {
  const body = (saved as { body?: unknown }).body ?? saved;
  return String((body as Json).status ?? '');
}

/** Why the write path refused, in the editor's words. */
function refusal(err: WpError, action: BulkAction): string {
  if (err.status === 401 || err.status === 403) {
    const verb = { publish: 'publish', trash: 'move to the trash', restore: 'restore', delete: 'delete' }[action];
    return `Refused: your role may not ${verb} this event.`;
  }
  return `Refused: ${err.message}`;
}
