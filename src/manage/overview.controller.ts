import { Controller, Get, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ManageErrorsFilter } from './manage-errors.filter';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { OverviewService } from './overview.service';
import { mayReview } from './review-queue';
import { ManageRoute } from './sign-in.controller';

/** The editing pages' front page (editing.md §2). */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage')
export class OverviewController {
  constructor(
    private readonly views: ManageViews,
    private readonly overview: OverviewService,
  ) {}

  @Get()
  @ManageRoute()
  async show(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
    const data = await this.overview.of(editor.actor, (id) => this.views.path('events', id));
    // Reviewers go to the review queue; others to their own pending events in the list.
    const pendingList = `${this.views.path('events')}?status=pending`;
    const review = mayReview(editor.actor) ? this.views.path('review') : undefined;
    return this.views.send(reply, {
      template: 'overview',
      title: 'Overview',
      current: 'overview',
      editor,
      data: { ...data, pendingHref: review ?? pendingList, pendingListHref: review ? pendingList : undefined },
    });
  }
}
