import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A change an extension makes to the OpenAPI document: properties of its own on core schemas, parameters on core operations. */
export type ApiDocChange = (document: OpenAPIObject) => void;

/**
 * Extension point for the OpenAPI document (extending.md §1: "documentation"; README
 * "Extending"). Routes of an extension are documented by their own decorators; what a core
 * schema or operation gains from an extension (a write field, a key of the representation, a
 * list parameter) is added by a change registered here, applied once when the document is built
 * and only while the extension is loaded. IndexModule exports it. The document is built when the
 * app is set up, before the modules' onModuleInit: register from a constructor.
 */
@Injectable()
export class ApiDocExtensions {
  private readonly changes: ApiDocChange[] = [];

  register(change: ApiDocChange): void {
    this.changes.push(change);
  }

  apply(document: OpenAPIObject): OpenAPIObject {
    for (const change of this.changes) change(document);
    return document;
  }
}

// What an ApiDocChange usually does, for extensions to share.

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
