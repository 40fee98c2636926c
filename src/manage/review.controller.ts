import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { FieldError } from './form-errors';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageRefusal } from './manage-refusals';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { REASON_MAX, ReviewActions, type ReviewOutcome } from './review-actions';
import { mayReview, type ReviewNotice, ReviewQueue } from './review-queue';
import { ManageRoute } from './sign-in.controller';

type Form = Record<string, unknown> | undefined;

/** What a page of the queue shows besides its events. */
interface QueueView {
  notice?: ReviewNotice;
  /** Why an action did nothing (the queue was out of date). */
  stale?: string;
  errors?: FieldError[];
  /** The reasons as typed, by event id, kept when a decline comes back. */
  reasons?: Record<number, string>;
}

/**
 * The review queue (editing.md §2 `/manage/review/`, §7): pending events oldest first, each
 * with "Approve", a link to its form to edit then approve, and "Decline" with a "Reason". For
 * those who may publish other people's events; others get a 403 page. After an action the
 * queue says what happened (a redirect, so a reload sends nothing again); an action on an
 * event that changed since the queue was shown does nothing and the queue says why (409).
 */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/review')
export class ReviewController {
  constructor(
    private readonly views: ManageViews,
    private readonly queue: ReviewQueue,
    private readonly actions: ReviewActions,
  ) {}

  @Get()
  @ManageRoute()
  async list(@Editor() editor: EditorSession, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply) {
    reviewer(editor);
    const notice = await this.queue.notice(query ?? {}, (id) => this.views.path('events', id));
    return this.show(reply, editor, pageOf(query?.page), { notice });
  }

  @Post(':id/approve')
  @ManageRoute()
  async approve(@Editor() editor: EditorSession, @Param('id', ParseIntPipe) id: number, @Body() body: Form, @Res() reply: FastifyReply) {
    reviewer(editor);
    const page = pageOf(body?.page);
    const outcome = await this.actions.approve(editor.actor, id, versionOf(body, editor));
    return this.after(reply, editor, page, outcome, `approved=${id}`);
  }

  @Post(':id/decline')
  @ManageRoute()
  async decline(@Editor() editor: EditorSession, @Param('id', ParseIntPipe) id: number, @Body() body: Form, @Res() reply: FastifyReply) {
    reviewer(editor);
    const page = pageOf(body?.page);
    const version = versionOf(body, editor);
    const reason = typeof body?.reason === 'string' ? body.reason.replace(/\r\n?/g, '\n').trim() : '';
    const problem =
      reason === '' ? 'Give the reason for declining.' : reason.length > REASON_MAX ? `The reason may be at most ${REASON_MAX} characters long.` : null;
    if (problem) {
      const errors = [{ field: `reason-${id}`, message: problem }];
      return this.show(reply, editor, page, { errors, reasons: { [id]: reason } }, 400);
    }
    const outcome = await this.actions.decline(editor.actor, id, version, reason);
    return this.after(reply, editor, page, outcome, `declined=${id}`, { [id]: reason });
  }

  /** Done: back to the queue, which says what happened. Stale: the queue as it is now, saying why nothing was done. */
  private async after(reply: FastifyReply, editor: EditorSession, page: number, outcome: ReviewOutcome, done: string, reasons?: Record<number, string>) {
    if (outcome.done) return reply.redirect(`${this.views.path('review')}?${page > 1 ? `page=${page}&` : ''}${done}`, 303);
    return this.show(reply, editor, page, { stale: outcome.stale, reasons }, 409);
  }

  private async show(reply: FastifyReply, editor: EditorSession, page: number, view: QueueView, status = 200) {
    const queue = await this.queue.page(editor.actor, page);
    const href = (n: number) => `${this.views.path('review')}${n > 1 ? `?page=${n}` : ''}`;
    const errors = view.errors ?? [];
    return this.views.send(reply, {
      template: 'review',
      title: 'Review',
      current: 'review',
      editor,
      status,
      data: {
        ...queue,
        notice: view.notice,
        stale: view.stale,
        errors,
        reasons: view.reasons ?? {},
        err: (field: string) => errors.find((e) => e.field === field)?.message,
        previous: queue.page > 1 ? href(queue.page - 1) : undefined,
        next: queue.page < queue.pages ? href(queue.page + 1) : undefined,
        action: (id: number, verb: 'approve' | 'decline') => `${this.views.path('review')}${id}/${verb}`,
      },
    });
  }
}

/** Only those who may publish other people's events review them (auth.md §2); others are told so. */
function reviewer(editor: EditorSession): void {
  if (!mayReview(editor.actor)) {
    throw new ManageRefusal(403, 'Editors and administrators only', 'Only editors and administrators review the events sent for review.', editor.session);
  }
}

/** The version an action carries (the event's ETag as the queue showed it); a form without one is refused. */
function versionOf(body: Form, editor: EditorSession): string {
  const version = body?.version;
  if (typeof version !== 'string' || version === '') {
    throw new ManageRefusal(400, 'Not done', 'The form did not say which version of the event it was shown. Reload the queue and try again.', editor.session);
  }
  return version;
}

function pageOf(value: unknown): number {
  const page = Number(typeof value === 'string' ? value : '1');
  return Number.isSafeInteger(page) && page > 0 && page < 100000 ? page : 1;
}
