import { Controller, Get, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ManageErrorsFilter } from './manage-errors.filter';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageRoute } from './sign-in.controller';

/** The editing pages' front page (editing.md §2). */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage')
export class OverviewController {
  constructor(private readonly views: ManageViews) {}

  @Get()
  @ManageRoute()
  overview(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
    return this.views.send(reply, { template: 'overview', title: 'Overview', current: 'overview', editor });
  }
}
