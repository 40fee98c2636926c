import { Injectable } from '@nestjs/common';
import { can } from '../common/auth';
import { Hook } from '../common/feature/hooks';
import type { Tx } from '../database/tx';
import { EVENT_HOOKS, type EventDeleteContext, type EventEntity, type EventHook } from '../events';
import { EVENT_FORM_HOOKS, type EventFormContext, type EventFormHook, type EventFormSection, REVIEW_HOOKS, type ReviewHook } from '../manage';
import { type Submitter, SubmissionsRepository } from './submissions.repository';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * Who sent a submitted event, shown to editors and administrators only (editing.md §4): to the
 * review queue (a ReviewHook, the queue being theirs alone) and as a read-only "Submitted by" on
 * the event form, for an actor who may edit others' events. No representation, page, feed or
 * iCalendar answer reads it: this class presents nothing (no `present`). The row goes with the
 * event when it is deleted for good.
 */
@Hook(REVIEW_HOOKS, EVENT_FORM_HOOKS, EVENT_HOOKS)
@Injectable()
export class SubmitterHook implements ReviewHook, EventFormHook, EventHook {
  readonly name = 'submission';
  readonly params: readonly string[] = [];
  readonly formSection: EventFormSection = {
    render: (ctx) => this.section(ctx),
    read: () => undefined,
  };

  constructor(private readonly repository: SubmissionsRepository) {}

  submitters(eventIds: readonly number[]): Promise<ReadonlyMap<number, Submitter>> {
    return this.repository.submitters(eventIds);
  }

  async deleting(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    if (ctx.force) await this.repository.remove(tx, event.id);
  }

  /** "Submitted by" with the name and e-mail, on the form of a submitted event, for an editor or administrator. */
  private async section(ctx: EventFormContext): Promise<string> {
    const id = Number(ctx.event?.id);
    if (!Number.isInteger(id) || id <= 0 || !can(ctx.actor, 'edit_others')) return '';
    const submitter = (await this.repository.submitters([id])).get(id);
    if (!submitter) return '';
    const email = submitter.email === '' ? '' : ` · <a href="mailto:${escapeHtml(submitter.email)}">${escapeHtml(submitter.email)}</a>`;
    return [
      '<fieldset class="submitted-by">',
      '<legend>Submitted by</legend>',
      `<p>${escapeHtml(submitter.name)}${email}</p>`,
      '<p class="help">Sent through the public submission form; shown to editors and administrators only.</p>',
      '</fieldset>',
    ].join('\n');
  }
}
