import { Body, Controller, Get, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EventFormPickers } from './event-form-pickers';
import { BULK_ACTIONS, type BulkAction, EVENT_TABS, EVENTS_PER_PAGE, type EventsListQuery, EventsListService } from './events-list.service';
import { ManageErrorsFilter } from './manage-errors.filter';
import { Editor, type EditorSession, ManageGuard, safeNext } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageRoute } from './sign-in.controller';

type Form = Record<string, unknown>;

/** A bulk action's button and its heading on the result page. */
const ACTION_TEXT: Record<BulkAction, { button: string; heading: string }> = {
  publish: { button: 'Publish', heading: 'Publish' },
  trash: { button: 'Move to trash', heading: 'Move to trash' },
  restore: { button: 'Restore', heading: 'Restore' },
  delete: { button: 'Delete permanently', heading: 'Delete permanently' },
};

/** At most this many events in one bulk action (a page holds EVENTS_PER_PAGE; a crafted form gets no more). */
const MAX_BULK = 100;

/** The events list of the editing pages (editing.md §2 `/manage/events/`). */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/events')
export class EventsListController {
  constructor(
    private readonly views: ManageViews,
    private readonly events: EventsListService,
    private readonly pickers: EventFormPickers,
  ) {}

  @Get()
  @ManageRoute()
  async list(@Editor() editor: EditorSession, @Query() raw: Record<string, unknown>, @Res() reply: FastifyReply) {
    const query = this.events.parseQuery(raw ?? {});
    const [counts, page, categories, chosen] = await Promise.all([
      this.events.counts(editor.actor),
      this.events.page(editor.actor, query),
      // The category filter is a choice among the tree (categories are few); a venue or organizer
      // filter (set from the venues' and organizers' pages) is named beside its field.
      this.pickers.categoryTree(editor.actor),
      this.pickers.chosen(editor.actor, String(query.venue ?? ''), query.organizer === undefined ? [] : [String(query.organizer)]),
    ]);
    const href = (changes: Partial<Record<keyof EventsListQuery, string | number | undefined>>) => this.listHref(query, changes);
    return this.views.send(reply, {
      template: 'events-list',
      title: 'Events',
      current: 'events',
      editor,
      data: {
        query,
        counts,
        categories: [{ value: '', label: 'All categories' }, ...categories.map((c) => ({ value: c.id, label: `${'— '.repeat(c.depth)}${c.name}` }))],
        venueName: chosen.venue?.label,
        organizerName: chosen.organizers[0]?.label,
        tabs: EVENT_TABS.map((t) => ({ ...t, href: href({ tab: t.key, page: 1 }) })),
        rows: page.rows,
        total: page.total,
        pages: page.pages,
        perPage: EVENTS_PER_PAGE,
        previous: query.page > 1 ? href({ page: query.page - 1 }) : undefined,
        next: query.page < page.pages ? href({ page: query.page + 1 }) : undefined,
        back: href({}),
        publishLabel: EventsListService.publishLabel(editor.actor),
        actions: query.tab === 'trash' ? (['restore', 'delete'] as const) : (['publish', 'trash'] as const),
        sortHref: (sort: 'start' | 'modified') => href({ sort, direction: query.sort === sort && query.direction === 'asc' ? 'desc' : 'asc', page: 1 }),
      },
    });
  }

  /**
   * The bulk actions. Delete permanently asks first: without `confirm` it answers a page that
   * names the events and carries the same choice again (no script needed).
   */
  @Post('bulk')
  @ManageRoute()
  async bulk(@Editor() editor: EditorSession, @Body() body: Form | undefined, @Res() reply: FastifyReply) {
    const form = body ?? {};
    const action = BULK_ACTIONS.find((a) => a === form.action);
    const ids = idsOf(form.ids);
    const back = safeNext(form.back, this.views.path('events'));
    if (!action || ids.length === 0) {
      return this.views.send(reply, {
        template: 'bulk-message',
        title: 'Nothing to do',
        current: 'events',
        editor,
        status: 400,
        data: {
          heading: 'Nothing to do',
          text: action ? 'Check at least one event, then choose the action again.' : 'Choose an action.',
          link: { href: back, text: 'Back to the events' },
        },
      });
    }
    if (action === 'delete' && form.confirm !== 'yes') {
      const rows = await this.events.rowsById(editor.actor, ids);
      return this.views.send(reply, { template: 'events-confirm', title: 'Delete permanently?', current: 'events', editor, data: { rows, back } });
    }
    const outcomes = await this.events.apply(editor.actor, action, ids);
    const heading = action === 'publish' ? EventsListService.publishLabel(editor.actor) : ACTION_TEXT[action].heading;
    return this.views.send(reply, { template: 'events-bulk', title: heading, current: 'events', editor, data: { heading, outcomes, back } });
  }

  /** The list's URL with some of its parameters changed; defaults are left out. */
  private listHref(query: EventsListQuery, changes: Partial<Record<keyof EventsListQuery, string | number | undefined>>): string {
    const merged = { ...query, ...changes };
    const params = new URLSearchParams();
    if (merged.tab !== 'all') params.set('status', String(merged.tab));
    if (merged.search) params.set('search', String(merged.search));
    for (const key of ['category', 'venue', 'organizer', 'from', 'to'] as const) if (merged[key]) params.set(key, String(merged[key]));
    if (merged.sort !== 'start') params.set('sort', String(merged.sort));
    if (merged.direction !== 'asc') params.set('order', String(merged.direction));
    if (Number(merged.page) > 1) params.set('page', String(merged.page));
    const search = params.toString();
    return `${this.views.path('events')}${search ? `?${search}` : ''}`;
  }
}

/** The checked ids of a bulk form (`ids[]` or `ids`), each once, at most MAX_BULK. */
function idsOf(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const ids = list.filter((v): v is string => typeof v === 'string' && /^\d{1,9}$/.test(v)).map(Number);
  return [...new Set(ids)].filter((id) => id > 0).slice(0, MAX_BULK);
}

export { ACTION_TEXT };
