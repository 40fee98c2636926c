import type { WriteParticipant } from '../database/write-participants';

/**
 * Who asks for an event write, said by every caller of the write pipeline (EventWriter) and
 * passed to the extensions' hooks (EventWriteContext.origin), so that a hook tells a request's
 * write from the writes a module makes itself without reading anything into the input.
 *
 * - `route`: the REST routes (the default of EventWriter and EventDeleter);
 * - `form`: the editing pages' event form;
 * - `extension`: a hook's own write through EventWrites (the default there);
 * - `series`: the recurrence module's writes of a series' occurrences (made, changed, removed
 *   for a write of the series), which its own hooks leave alone;
 * - `import`: an importer's write, with `participants` declared for it (the imported_records
 *   row that maps the source record to the local one, in the write's transaction);
 * - `submission`: the public submission form's write (editing.md §4), with `participants`
 *   declared for it (who sent the event, kept beside it in the write's transaction).
 */
export type EventWriteOrigin =
  | { readonly kind: 'route' }
  | { readonly kind: 'form' }
  | { readonly kind: 'extension' }
  | { readonly kind: 'series' }
  | { readonly kind: 'import'; readonly participants: readonly WriteParticipant[] }
  | { readonly kind: 'submission'; readonly participants: readonly WriteParticipant[] };

export const ROUTE_ORIGIN: EventWriteOrigin = { kind: 'route' };
export const FORM_ORIGIN: EventWriteOrigin = { kind: 'form' };
export const EXTENSION_ORIGIN: EventWriteOrigin = { kind: 'extension' };
export const SERIES_ORIGIN: EventWriteOrigin = { kind: 'series' };

/** The participants the origin declares for its write's unit of work (UnitOfWork.run). */
export function declaredParticipants(origin: EventWriteOrigin): readonly WriteParticipant[] {
  return origin.kind === 'import' || origin.kind === 'submission' ? origin.participants : [];
}
