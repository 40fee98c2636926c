import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ParameterObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Hook } from '../common/feature/hooks';
import { addParameters, addProperties, API_DOC_HOOKS, type ApiDocHook, requestBodySchemas } from '../rest-root';

// What the recurrence extension adds to the OpenAPI document (recurrence.md §6: `/doc`
// documents `recurrence`, `series`, `scope` and the list parameters when the module is on).
// The /occurrences route documents itself (occurrences.controller.ts).

const RECURRENCE: SchemaObject = {
  type: 'array',
  items: { type: 'string' },
  description:
    'RFC 5545 lines without DTSTART (the event is the first occurrence): at most one `RRULE:` (FREQ DAILY, WEEKLY, MONTHLY or YEARLY), ' +
    '`RDATE:` and `EXDATE:` lines, wall times in the event zone (or UTC with `Z`), or dates with `;VALUE=DATE`. On an update with ' +
    '`scope=all`, `[]` ends the series. In answers: the lines as normalised (UNTIL in UTC, one EXDATE line per excluded start), `[]` outside a series.',
};
const SERIES: SchemaObject = {
  type: 'object',
  nullable: true,
  description: 'The series the event is an occurrence of; null outside a series.',
  required: ['id', 'rest_url', 'original_start', 'utc_original_start', 'detached'],
  properties: {
    id: { type: 'integer', description: "The series' id: the id of its first occurrence" },
    rest_url: { type: 'string', format: 'uri', description: 'The series’ occurrences' },
    original_start: { type: 'string', description: 'The start the rule gave this occurrence (RECURRENCE-ID), wall time in the event zone' },
    utc_original_start: { type: 'string', description: 'The same, in UTC' },
    detached: { type: 'boolean', description: 'Edited on its own: series edits leave its fields alone' },
  },
};
const SCOPE: SchemaObject = {
  type: 'string',
  enum: ['this', 'following', 'all'],
  description: 'For an occurrence of a series: this occurrence (default), it and the later ones, or the whole series. Ignored outside a series.',
};
const SCOPE_PARAM: ParameterObject = { name: 'scope', in: 'query', required: false, schema: SCOPE, description: SCOPE.description };
const LIST_PARAMS: ParameterObject[] = [
  { name: 'series', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'Only the occurrences of this series' },
  {
    name: 'hide_subsequent_recurrences',
    in: 'query',
    required: false,
    schema: { type: 'boolean' },
    description: 'Of each series, only the first occurrence the query would list',
  },
];

const EVENT_PATHS = /^\/events(\/\{id\}|\/by-slug\/\{slug\})?$/;

/** What /doc says of the extension's fields and parameters on the core's event schemas and operations. */
@Hook(API_DOC_HOOKS)
@Injectable()
export class RecurrenceApiDoc implements ApiDocHook {
  documentApi(document: OpenAPIObject): void {
    documentRecurrence(document);
  }
}

/** Adds the extension's fields and parameters to the core's event schemas and operations. */
export function documentRecurrence(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  addProperties(schemas.Event, { recurrence: RECURRENCE, series: SERIES });
  const bodies = new Map<string, boolean>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!EVENT_PATHS.test(path)) continue;
    const single = path !== '/events';
    for (const op of [item.post, item.put, item.patch]) {
      if (!op) continue;
      for (const name of requestBodySchemas(op)) bodies.set(name, (bodies.get(name) ?? false) || single);
      if (single) addParameters(op, [SCOPE_PARAM]);
    }
    if (item.delete) addParameters(item.delete, [SCOPE_PARAM]);
    if (!single && item.get) addParameters(item.get, LIST_PARAMS);
  }
  for (const [name, takesScope] of bodies) addProperties(schemas[name], { recurrence: RECURRENCE, ...(takesScope ? { scope: SCOPE } : {}) });
}
