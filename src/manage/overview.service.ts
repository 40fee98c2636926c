import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, can } from '../common/auth';
import { AppConfig } from '../config/app-config';
import { SourcesService } from '../sources';
import { ChangesService } from '../sync';
import { type EventRow, EventsListService } from './events-list.service';

/** How many events each short list of the overview shows. */
const FEW = 5;
/** How many of the latest changes the overview shows. */
const LAST_CHANGES = 10;

/** One of the latest changes, as the overview names it. */
export interface ChangeLine {
  type: string;
  id: number;
  name: string;
  modifiedUtc: string;
  /** The item's editing page, where there is one. */
  href?: string;
}

/** A source's last run, for administrators. */
export interface SourceLine {
  id: number;
  url: string;
  status: string;
  lastRun: { status: string; finished: string | null; failed: number } | null;
}

export interface Overview {
  upcoming: EventRow[];
  drafts: { rows: EventRow[]; total: number };
  scheduled: { rows: EventRow[]; total: number };
  pending: number;
  changes: ChangeLine[];
  sources?: SourceLine[];
}

/**
 * The editing pages' front page (editing.md §2 `/manage/`): each part read through the
 * feature that owns it, as the signed-in editor may read it (the events list's service, the
 * change feed, the sources' service for administrators).
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly events: EventsListService,
    private readonly changes: ChangesService,
    private readonly sources: SourcesService,
    private readonly config: AppConfig,
  ) {}

  async of(actor: Actor, eventPath: (id: number) => string): Promise<Overview> {
    const today = DateTime.utc().setZone(this.config.timezone).toISODate() ?? '';
    const q = EventsListService.query;
    const upcoming = await this.events.page(actor, q({ from: today }), FEW);
    const drafts = await this.events.page(actor, q({ tab: 'draft', sort: 'modified', direction: 'desc' }), FEW);
    const scheduled = await this.events.page(actor, q({ tab: 'future' }), FEW);
    const counts = await this.events.counts(actor);
    return {
      upcoming: upcoming.rows,
      drafts: { rows: drafts.rows, total: drafts.total },
      scheduled: { rows: scheduled.rows, total: scheduled.total },
      pending: counts.pending,
      changes: await this.lastChanges(actor, eventPath),
      sources: can(actor, 'manage_sources') ? await this.sourceLines(actor) : undefined,
    };
  }

  private async lastChanges(actor: Actor, eventPath: (id: number) => string): Promise<ChangeLine[]> {
    const rows = await this.changes.recent(actor, LAST_CHANGES);
    const items = await this.changes.items(actor, rows);
    return rows.map((row) => {
      const bytes = items.get(`${row.type}:${row.id}`);
      const item = bytes ? (JSON.parse(bytes.toString()) as Record<string, unknown>) : {};
      const name = String(item.title ?? item.venue ?? item.organizer ?? item.name ?? '') || `${row.type} ${row.id}`;
      return { type: row.type, id: row.id, name, modifiedUtc: row.modifiedUtc, href: row.type === 'event' ? eventPath(row.id) : undefined };
    });
  }

  private async sourceLines(actor: Actor): Promise<SourceLine[]> {
    const { sources } = await this.sources.list(actor);
    return sources.map((s) => {
      const run = s.last_run as { status: string; finished_utc: string | null; failed: number } | null;
      return {
        id: Number(s.id),
        url: String(s.url ?? ''),
        status: String(s.status ?? ''),
        lastRun: run ? { status: run.status, finished: run.finished_utc, failed: run.failed } : null,
      };
    });
  }
}
