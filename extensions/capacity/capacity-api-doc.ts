import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ParameterObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { addParameters, addProperties, API_DOC_HOOKS, Hook, requestBodySchemas } from '../../src/extend';
import type { ApiDocHook } from '../../src/extend';
import { MAX_CAPACITY } from './capacity-param';

// What the capacity module adds to the core's part of the OpenAPI document: `capacity` on the
// Event schema and in the event write bodies, `min_capacity` on GET /events. Its own route
// documents itself (capacity.controller.ts).

const CAPACITY: SchemaObject = {
  type: 'integer',
  nullable: true,
  minimum: 0,
  maximum: MAX_CAPACITY,
  description: 'How many people the event takes; null: not set. In a write, an empty string clears it.',
};
const MIN_CAPACITY: ParameterObject = {
  name: 'min_capacity',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 0, maximum: MAX_CAPACITY },
  description: 'Only events that take at least this many people (events without a capacity are left out)',
};

const EVENT_WRITES = /^\/events(\/\{id\}|\/by-slug\/\{slug\})?$/;

@Hook(API_DOC_HOOKS)
@Injectable()
export class CapacityApiDoc implements ApiDocHook {
  documentApi(document: OpenAPIObject): void {
    const schemas = document.components?.schemas ?? {};
    addProperties(schemas.Event, { capacity: CAPACITY });
    for (const [path, item] of Object.entries(document.paths)) {
      if (!EVENT_WRITES.test(path)) continue;
      for (const op of [item.post, item.put, item.patch])
        for (const name of op ? requestBodySchemas(op) : []) addProperties(schemas[name], { capacity: CAPACITY });
      if (path === '/events' && item.get) addParameters(item.get, [MIN_CAPACITY]);
    }
  }
}
