import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

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
