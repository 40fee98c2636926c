import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Holds the OpenAPI document; the namespace index is derived from it. The document is built
 * from every controller and DTO (a large part of an app's start-up), so it is built when first
 * asked for and kept: main.ts asks at start-up, an app that never serves it (a test's) never builds it.
 */
@Injectable()
export class ApiDocsService {
  private build: (() => OpenAPIObject) | null = null;
  private document: OpenAPIObject | null = null;

  setBuilder(build: () => OpenAPIObject): void {
    this.build = build;
    this.document = null;
  }

  getDocument(): OpenAPIObject {
    if (this.document) return this.document;
    if (!this.build) throw new Error('The API document has not been set up yet.');
    return (this.document = this.build());
  }
}
