import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WpError } from '../common/errors';
import { type EventFormContext, EventFormHooks, type EventFormQuestion } from './event-form-hooks';
import { endBeforeStart, type EventFormValues, newEventValues, postedValues, storedEventValues } from './event-form-values';
import { type EventFormView, EventFormViews, formChanged } from './event-form-views';
import { EventFormService, type OpenedEvent } from './event-form.service';
import { formErrors, type FieldError } from './form-errors';
import { ManageErrorsFilter } from './manage-errors.filter';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { mayReview } from './review-queue';
import { ManageRoute } from './sign-in.controller';

type Json = Record<string, unknown>;

/** The write parameters of events and the ids of the form's inputs they belong to (the summary links there). */
const FIELD_OF: Record<string, string> = {
  title: 'title',
  description: 'description',
  excerpt: 'excerpt',
  start_date: 'start_date',
  end_date: 'end_date',
  all_day: 'all_day',
  timezone: 'timezone',
  venue: 'venue-none',
  organizer: 'organizer_search',
  categories: 'categories',
  tags: 'tags',
  cost: 'cost',
  website: 'website',
  image: 'image',
  status: 'status',
  date: 'publish_date',
  featured: 'flag-featured',
  sticky: 'flag-sticky',
  hide_from_listings: 'flag-hide_from_listings',
  show_map: 'flag-show_map',
  show_map_link: 'flag-show_map_link',
};

/**
 * The event form (editing.md §2, §5, §7, §8): a new event at /manage/events/new, an existing one
 * at /manage/events/{id}/. A save is the API's write (EventFormService); a refused one comes
 * back as the form with every value kept and each message beside its field; a save over a newer
 * version shows both versions and lets the editor choose; the pickers search on the server.
 */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/events')
export class EventFormController {
  constructor(
    private readonly forms: EventFormService,
    private readonly views: EventFormViews,
    private readonly manage: ManageViews,
    private readonly hooks: EventFormHooks,
  ) {}

  @Get('new')
  @ManageRoute()
  async create(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
    return this.show(reply, editor, { values: newEventValues(this.forms.siteZone, this.hooks.all()), opened: null });
  }

  @Post('new')
  @ManageRoute()
  async createPost(@Editor() editor: EditorSession, @Body() body: Json | undefined, @Res() reply: FastifyReply) {
    return this.take(reply, editor, null, body ?? {});
  }

  @Get(':id')
  @ManageRoute()
  async edit(@Editor() editor: EditorSession, @Param('id', ParseIntPipe) id: number, @Query() query: Json, @Res() reply: FastifyReply) {
    const opened = await this.forms.open(editor.actor, id);
    const notice =
      query.saved !== undefined ? 'Saved' : query.trashed !== undefined ? 'Moved to the trash' : query.restored !== undefined ? 'Restored' : undefined;
    // From the review queue ("Edit, then approve"): "Publish" then goes back to the queue.
    const reviewing = query.review !== undefined && mayReview(editor.actor);
    return this.show(reply, editor, { values: storedEventValues(opened.entity, opened.body, this.hooks.all()), opened, notice, reviewing });
  }

  @Post(':id')
  @ManageRoute()
  async editPost(@Editor() editor: EditorSession, @Param('id', ParseIntPipe) id: number, @Body() body: Json | undefined, @Res() reply: FastifyReply) {
    return this.take(reply, editor, await this.forms.open(editor.actor, id), body ?? {});
  }

  /** A post of the form: a search of a picker, a save, a trash or a restore. */
  private async take(reply: FastifyReply, editor: EditorSession, opened: OpenedEvent | null, body: Json) {
    const action = typeof body.action === 'string' ? body.action : 'save';
    const values = postedValues(body, this.hooks.all());
    const version = typeof body.version === 'string' ? body.version : '';
    const ctx: EventFormContext = { actor: editor.actor, event: opened?.body ?? null, posted: body, errors: {} };
    const form = opened ? this.manage.path('events', opened.entity.id) : '';
    if (action === 'restore' && opened) {
      await this.forms.restore(editor.actor, opened.entity);
      return reply.redirect(`${form}?restored=1`, 303);
    }
    if (action === 'trash' && opened) {
      const asked = this.hooks.unanswered('trash', ctx, values.answers);
      if (asked.length > 0) return this.ask(reply, editor, { values, opened, version, posted: body }, asked);
      try {
        await this.forms.trash(editor.actor, opened.entity.id, version, values.answers);
      } catch (err) {
        if (!(err instanceof WpError) || err.status !== 412) throw err;
        return this.conflict(reply, editor, opened, values, body);
      }
      return reply.redirect(`${form}?trashed=1`, 303);
    }
    if (action.startsWith('venues_') || action.startsWith('organizers_')) {
      return this.show(reply, editor, { values: turnPage(values, action), opened, version, posted: body });
    }
    if (this.hooks.redisplay(body)) return this.show(reply, editor, { values, opened, version, posted: body });
    if (action === 'publish') values.status = 'publish';
    if (action === 'submit') values.status = 'pending';
    if (opened) ctx.changed = formChanged(storedEventValues(opened.entity, opened.body, this.hooks.all()), values);
    if (opened && ctx.changed === false && this.hooks.unchangedWritesNothing(ctx)) return reply.redirect(`${form}?saved=1`, 303);
    if (endBeforeStart(values)) {
      const errors = [{ field: 'end_date', message: 'The end must not be before the start.' }];
      return this.show(reply, editor, { values, opened, version, posted: body, errors }, 400);
    }
    const asked = this.hooks.unanswered('save', ctx, values.answers);
    if (asked.length > 0) return this.ask(reply, editor, { values, opened, version, posted: body }, asked);
    let id: number;
    try {
      id = await this.forms.save(editor.actor, opened?.entity ?? null, values, version, ctx);
    } catch (err) {
      if (!(err instanceof WpError)) throw err;
      if (err.status === 412) return this.conflict(reply, editor, opened as OpenedEvent, values, body);
      if (err.status !== 400) throw err;
      return this.show(reply, editor, { values, opened, version, posted: body, errors: this.errorsOf(err, ctx), paramErrors: paramErrors(err) }, 400);
    }
    // "Publish" of an event opened from the review queue approves it: back to the queue, which says so.
    if (action === 'publish' && opened && reviewingPost(body, editor)) return reply.redirect(`${this.manage.path('review')}?approved=${id}`, 303);
    return reply.redirect(`${this.manage.path('events', id)}?saved=1`, 303);
  }

  /** Saved over a newer version: the form comes back with the editor's values, the stored ones beside them, and the new version. */
  private async conflict(reply: FastifyReply, editor: EditorSession, previous: OpenedEvent, values: EventFormValues, body: Json) {
    const opened = await this.forms.open(editor.actor, previous.entity.id);
    const stored = storedEventValues(opened.entity, opened.body, this.hooks.all());
    return this.show(reply, editor, { values, opened, version: opened.version, posted: body, conflictWith: stored }, 409);
  }

  /** The questions that must be answered before the button goes on: the form again, not written, with each question and its message. */
  private ask(reply: FastifyReply, editor: EditorSession, view: Omit<EventFormView, 'editor'>, asked: EventFormQuestion[]) {
    const errors = asked.map((q) => ({ field: `answer-${q.name}-${q.choices[0]?.value ?? ''}`, message: q.message ?? `${q.legend} Choose one.` }));
    return this.show(reply, editor, { ...view, asked, errors });
  }

  private errorsOf(err: WpError, ctx: EventFormContext): FieldError[] {
    const ext = new Set(this.hooks.fields().map((f) => f.param));
    const params = paramErrors(err);
    return formErrors(
      err,
      (param) => FIELD_OF[param] ?? (ext.has(param) ? `ext-${param}` : this.hooks.sectionFieldOf(param, params[param] ?? '', ctx)),
      'event-form',
    );
  }

  private async show(reply: FastifyReply, editor: EditorSession, view: Omit<EventFormView, 'editor'>, status = 200) {
    const reviewing = view.reviewing ?? (view.posted !== undefined && reviewingPost(view.posted, editor));
    const data = await this.views.build({ ...view, editor, reviewing });
    const title = view.opened ? `Edit “${view.opened.entity.title}”` : 'New event';
    return this.manage.send(reply, { template: 'event-form', title, current: 'events', editor, data, status });
  }
}

/** Whether the form was opened from the review queue (its hidden `review`), by someone who reviews. */
function reviewingPost(body: Json, editor: EditorSession): boolean {
  return body.review === '1' && mayReview(editor.actor);
}

/** The values with a picker's page turned (`venues_find`, `venues_next`, `venues_previous`, likewise organizers). */
function turnPage(values: EventFormValues, action: string): EventFormValues {
  const [picker, move] = action.split('_');
  const key = picker === 'venues' ? 'venue_page' : 'organizer_page';
  values[key] = move === 'next' ? values[key] + 1 : move === 'previous' ? Math.max(1, values[key] - 1) : 1;
  return values;
}

/** A refused write's messages by parameter (`rest_invalid_param`'s `data.params`). */
function paramErrors(err: WpError): Record<string, string> {
  const params = err.data.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return {};
  return Object.fromEntries(Object.entries(params as Record<string, unknown>).map(([name, message]) => [name, String(message)]));
}
