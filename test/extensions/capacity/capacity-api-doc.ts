import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
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

export function documentCapacity(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  addCapacity(schemas.Event);
  for (const [path, item] of Object.entries(document.paths)) {
    if (!EVENT_WRITES.test(path)) continue;
    for (const op of [item.post, item.put, item.patch]) for (const name of op ? bodySchemas(op) : []) addCapacity(schemas[name]);
    if (path === '/events' && item.get) item.get.parameters = [...(item.get.parameters ?? []), MIN_CAPACITY];
  }
}

function addCapacity(schema: SchemaObject | ReferenceObject | undefined): void {
  if (schema && !('$ref' in schema)) schema.properties = { ...schema.properties, capacity: CAPACITY };
}

/** The component names of an operation's request bodies. */
function bodySchemas(op: OperationObject): string[] {
  const body = op.requestBody;
  if (!body || '$ref' in body) return [];
  return Object.values(body.content).flatMap((media) => (media.schema && '$ref' in media.schema ? [media.schema.$ref.split('/').pop()!] : []));
}
