import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import type { EventQueryExtension } from './events.filters';

/**
 * Extension point for optional modules (the geo extension, or a team's own module) that add
 * parameters to GET /events. An extension registers itself (usually in onModuleInit) and, for
 * each request, validates its own parameters and returns the conditions (and any leading
 * order) to add to the query.
 */
export interface EventListExtension {
  /** The query parameters this extension owns; they are kept in `rest_url`. */
  readonly params: readonly string[];
  /** Throws a WpError (400) for bad values; returns null when the request does not use it. */
  prepare(query: Record<string, unknown>, actor: Actor | null): Promise<EventQueryExtension | null> | EventQueryExtension | null;
}

@Injectable()
export class EventListExtensions {
  private readonly extensions: EventListExtension[] = [];

  register(extension: EventListExtension): void {
    this.extensions.push(extension);
  }

  all(): readonly EventListExtension[] {
    return this.extensions;
  }

  /** Is some extension in charge of this parameter? */
  owns(param: string): boolean {
    return this.extensions.some((e) => e.params.includes(param));
  }
}
