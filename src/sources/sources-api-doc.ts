import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Hook } from '../common/feature/hooks';
import { addParameters, API_DOC_HOOKS, type ApiDocHook } from '../rest-root';

/** What /doc says of the sources beyond their routes. */
@Hook(API_DOC_HOOKS)
@Injectable()
export class SourcesApiDoc implements ApiDocHook {
  documentApi(document: OpenAPIObject): void {
    documentSources(document);
  }
}

/** The feature's tag, and the `source` parameter it adds to GET /events (sources.md §4). */
export function documentSources(document: OpenAPIObject): void {
  document.tags = [
    ...(document.tags ?? []),
    { name: 'sources', description: 'Sources (administrators only): other TEC sites and iCalendar feeds this calendar is kept in step with, and their runs.' },
  ];
  const list = document.paths['/events']?.get;
  if (list) {
    addParameters(list, [
      {
        name: 'source',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1 },
        description: 'Only the events that source wrote (an id that is no source gives an empty list)',
      },
    ]);
  }
}
