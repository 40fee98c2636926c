import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the OpenAPI document generated at start-up; the namespace index is derived from it. */
@Injectable()
export class ApiDocsService {
  private document: OpenAPIObject | null = null;

  setDocument(document: OpenAPIObject): void {
    this.document = document;
  }

  getDocument(): OpenAPIObject {
    if (!this.document) throw new Error('The API document has not been generated yet.');
    return this.document;
  }
}
