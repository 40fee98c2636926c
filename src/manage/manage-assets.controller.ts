import { Controller, Get, Param, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageRefusal } from './manage-refusals';
import { ManageViews } from './manage-views';

/** The editing pages' stylesheet and script: named by their content's hash, so cached for a year. */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@Controller('manage/assets')
export class ManageAssetsController {
  constructor(private readonly views: ManageViews) {}

  @Get(':file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply) {
    const asset = [this.views.stylesheet, this.views.script].find((a) => a.file === file);
    if (!asset) throw new ManageRefusal(404, 'Not found', 'There is no such file.');
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
  }
}
