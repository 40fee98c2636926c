import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { hookKind, Hooks } from '../common/feature/hooks';

/**
 * A hook of the OpenAPI document (extending.md §1: "documentation"; README "Extending"). Routes
 * of a feature are documented by their own decorators; what a core schema or operation gains
 * from it (a write field, a key of the representation, a list parameter) is added here, once
 * when the document is built, and only while its module is loaded.
 */
export interface ApiDocHook {
  /** Adds to the document: properties of its own on core schemas, parameters on core operations. */
  documentApi(document: OpenAPIObject): void;
}
export const API_DOC_HOOKS = hookKind<ApiDocHook>('OpenAPI document');

/** The hooks of the OpenAPI document, as the app provides them (Hooks), for setupApiDocs. */
@Injectable()
export class ApiDocHooks extends Hooks<ApiDocHook> {
  constructor(discovery: DiscoveryService) {
    super(discovery, API_DOC_HOOKS);
  }

  apply(document: OpenAPIObject): OpenAPIObject {
    for (const hook of this.all()) hook.documentApi(document);
    return document;
  }
}

// What an ApiDocHook usually does, for the hooks to share.

/** Adds `properties` to a schema of the document (a `$ref` or a missing schema is left alone). */
export function addProperties(schema: SchemaObject | ReferenceObject | undefined, properties: Record<string, SchemaObject>): void {
  if (!schema || '$ref' in schema) return;
  schema.properties = { ...schema.properties, ...properties };
}

/** Adds `parameters` to an operation, leaving out those it already has by name. */
export function addParameters(op: OperationObject, parameters: ParameterObject[]): void {
  const known = new Set((op.parameters ?? []).map((p) => ('name' in p ? p.name : '')));
  op.parameters = [...(op.parameters ?? []), ...parameters.filter((p) => !known.has(p.name))];
}

/** The component names of an operation's request bodies (one per media type that names a component). */
export function requestBodySchemas(op: OperationObject): string[] {
  const body = op.requestBody;
  if (!body || '$ref' in body) return [];
  return Object.values(body.content).flatMap((media) => (media.schema && '$ref' in media.schema ? [media.schema.$ref.split('/').pop()!] : []));
}
