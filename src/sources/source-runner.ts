import { Injectable, Logger } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { Actor } from '../common/auth';
import { WpError } from '../common/errors';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describeBytes, guardedFetch, OutboundNotPublic, OutboundRefused, OutboundTooLarge, readBodyText, refusalOf } from '../common/net/outbound';
import { AppConfig } from '../config/app-config';
import { EventDeleter } from '../events';
import {
  describeWpError,
  Fetcher,
  fetchFailure,
  IcsImporter,
  IcsInputError,
  ImportedRecordsRepository,
  ImportKind,
  ImportReport,
  ImportResult,
  ImportWriter,
  ReportStream,
  SiteError,
  TecImporter,
  TEC_SOURCE,
  ICS_SOURCE,
  IcsSeriesHooks,
  boundedWriter,
  reasonOf,
  RunLimitReached,
  type ReadBounds,
} from '../imports';
import { openSecret, SecretUnreadable } from '../common/crypto/secret-box';
import { SourceEntity } from './source.entity';
import { SourceItemsRepository } from './source-items.repository';
import { SourcesRepository } from './sources.repository';
import { SourceSession } from './source-session';
import { PASSWORD_CONTEXT } from './source-secrets';

/** What a run did (sources.md §3); `failed` here is the records that failed. */
export interface RunOutcome {
  status: 'succeeded' | 'partial' | 'failed';
  counts: Record<ImportResult | 'failed' | 'trashed', number>;
  errors: { record: string; message: string }[];
  /** The feed's validators to send next time (`ics`, after a complete read). */
  validators?: { etag: string | null; lastModified: string | null };
}

/** `errors` keeps the first 50 (sources.md §3). */
export const MAX_RUN_ERRORS = 50;

/** A source cannot be read (sources.md §3 `failed`): nothing was written. */
class SourceUnreadable extends Error {}

/** What one run may cost (sources.md §4; the settings in README, docs/security.md). */
interface RunBounds {
  read: ReadBounds;
  writer: ImportWriter;
  deadline: AbortSignal;
}

/**
 * Runs one source once (sources.md §3–4): reads it whole first — a source that cannot be read,
 * is not the API, refuses the credentials or is not iCalendar fails the run with nothing
 * written — then writes through the importers (the same identity as `import:tec`/`import:ics`),
 * then, after a complete run, trashes the events the source no longer has. `progress` hears
 * the counts as they move (the worker keeps them in the run's row).
 */
@Injectable()
export class SourceRunner {
  private readonly logger = new Logger('Sources');

  constructor(
    private readonly sources: SourcesRepository,
    private readonly items: SourceItemsRepository,
    private readonly config: AppConfig,
    private readonly writer: ImportWriter,
    private readonly deleter: EventDeleter,
    private readonly series: IcsSeriesHooks,
    private readonly records: ImportedRecordsRepository,
  ) {}

  /** `out`: where the importers' progress bars and failures go (a command's terminal); none by default. */
  async run(source: SourceEntity, progress: (outcome: RunOutcome) => void = () => undefined, out?: ReportStream): Promise<RunOutcome> {
    const outcome: RunOutcome = {
      status: 'succeeded',
      counts: { created: 0, updated: 0, unchanged: 0, kept_local: 0, failed: 0, trashed: 0 },
      errors: [],
    };
    const report = new RunReport(outcome, () => progress(outcome), out);
    const session = new SourceSession(this.items, source.id, source.keepLocalEdits);
    const { bounds, end } = this.bounds();
    try {
      const author = await this.authorLogin(source);
      const held =
        source.kind === 'tec'
          ? await this.runTec(source, author, report, session, bounds)
          : await this.runIcs(source, author, report, session, outcome, bounds);
      report.end();
      outcome.status = outcome.counts.failed > 0 ? 'partial' : 'succeeded';
      if (outcome.status === 'succeeded' && held !== null && source.onSourceDelete === 'trash') await this.trashGone(source, held, author, outcome);
    } catch (err) {
      report.end();
      if (err instanceof RunLimitReached) {
        // Stopped while writing: what was written stays, nothing is trashed (the run did not see the whole source).
        outcome.status = 'partial';
        outcome.validators = undefined;
        outcome.errors = [{ record: `source ${source.id}`, message: err.message }, ...outcome.errors].slice(0, MAX_RUN_ERRORS);
        return outcome;
      }
      if (!(err instanceof SourceUnreadable || err instanceof SiteError || err instanceof IcsInputError)) throw err;
      outcome.status = 'failed';
      outcome.validators = undefined;
      outcome.errors = [{ record: `source ${source.id}`, message: err.message }];
    } finally {
      end();
    }
    return outcome;
  }

  /**
   * The run's limits: a deadline over the whole run (every request and every write), bytes per
   * answer and per run counted while read, events per run and terms per event (boundedWriter,
   * which also cleans markup and lets requests through between writes).
   */
  private bounds(): { bounds: RunBounds; end: () => void } {
    const c = this.config;
    const stop = new AbortController();
    const timer = setTimeout(
      () => stop.abort(new Error(`the run's deadline of ${c.sourcesDeadlineSeconds} s passed (CALENDAR_SOURCES_DEADLINE_SECONDS)`)),
      c.sourcesDeadlineSeconds * 1000,
    );
    timer.unref();
    let spent = 0;
    const read: ReadBounds = {
      maxAnswerBytes: c.sourcesMaxAnswerBytes,
      answerSetting: 'CALENDAR_SOURCES_MAX_ANSWER_MB',
      deadline: stop.signal,
      spend: (bytes) => {
        spent += bytes;
        if (spent > c.sourcesMaxRunBytes)
          throw new SiteError(`the run read more than ${describeBytes(c.sourcesMaxRunBytes)}, the most a run reads (CALENDAR_SOURCES_MAX_RUN_MB)`);
      },
    };
    const writer = boundedWriter(this.writer, {
      maxEvents: c.sourcesMaxEvents,
      maxTerms: c.sourcesMaxTerms,
      deadline: stop.signal,
      settings: { events: 'CALENDAR_SOURCES_MAX_EVENTS', terms: 'CALENDAR_SOURCES_MAX_TERMS' },
    });
    return { bounds: { read, writer, deadline: stop.signal }, end: () => clearTimeout(timer) };
  }

  /** The author's login (the importers write as that user); a source whose author is gone fails. */
  private async authorLogin(source: SourceEntity): Promise<string> {
    const login = (await this.sources.logins([source.authorId])).get(source.authorId);
    if (login === undefined) throw new SourceUnreadable(`the source's author (user ${source.authorId}) no longer exists; set another author`);
    return login;
  }

  /** Reads through the address rule of webhooks (sources.md §2), with CALENDAR_SOURCES_ALLOW_PRIVATE. */
  private get fetcher(): Fetcher {
    return async (url, init) => {
      try {
        return await guardedFetch(url, init, { allowPrivate: this.config.sourcesAllowPrivate });
      } catch (err) {
        // The run's error says which setting lets the source be read (a CLI run has its own environment).
        const refused = refusalOf(err);
        if (refused instanceof OutboundNotPublic) throw new OutboundRefused(`${refused.message} (CALENDAR_SOURCES_ALLOW_PRIVATE=on allows it)`);
        throw err;
      }
    };
  }

  /** A TEC site: held events are those the run saw (null: none may be trashed). */
  private async runTec(source: SourceEntity, author: string, report: ImportReport, session: SourceSession, bounds: RunBounds): Promise<Set<string> | null> {
    let password: string | undefined;
    try {
      password = source.password === null ? undefined : openSecret(source.password, this.config.webhookKey, PASSWORD_CONTEXT);
    } catch (err) {
      if (err instanceof SecretUnreadable) throw new SourceUnreadable(`the source's password cannot be read: ${err.message}`);
      throw err;
    }
    const importer = new TecImporter(
      bounds.writer,
      report,
      {
        siteUrl: source.url,
        user: source.login ?? undefined,
        password: source.login === null ? undefined : password,
        as: author,
        dryRun: false,
        readFirst: true,
        ownAuthor: true,
        status: source.status ?? undefined,
        categories: JSON.parse(source.categories) as number[],
        fetcher: this.fetcher,
        policy: { attempts: 3, timeoutMs: this.config.sourcesTimeoutSeconds * 1000, baseDelayMs: 500, maxDelayMs: 5000 },
        session,
        bounds: bounds.read,
        lists: {
          maxPages: this.config.sourcesMaxPages,
          maxRecords: this.config.sourcesMaxEvents,
          settings: { pages: 'CALENDAR_SOURCES_MAX_PAGES', records: 'CALENDAR_SOURCES_MAX_EVENTS' },
        },
      },
      (line) => this.logger.debug(`source ${source.id}: ${line}`),
    );
    await importer.run();
    return session.seen;
  }

  /** An iCalendar feed, read with the validators of the last complete read; a 304 is a run with nothing changed. */
  private async runIcs(
    source: SourceEntity,
    author: string,
    report: ImportReport,
    session: SourceSession,
    outcome: RunOutcome,
    bounds: RunBounds,
  ): Promise<Set<string> | null> {
    const read = await this.readFeed(source, bounds);
    if (read === 'not modified') {
      outcome.validators = { etag: source.etag, lastModified: source.lastModified };
      return null;
    }
    // Not iCalendar: the importer's first step (parsing) throws IcsInputError, and the run fails before anything is written.
    const now = DateTime.utc();
    const notes = { write: (text: string) => this.logger.debug(`source ${source.id}: ${text.trimEnd()}`) };
    const result = await new IcsImporter(bounds.writer, this.records, notes, this.series).run(
      {
        input: source.url,
        text: read.text,
        status: (source.status ?? 'publish') as 'publish',
        categories: (JSON.parse(source.categories) as number[]).map(String),
        author,
        dryRun: false,
        window: { fromMs: now.plus({ days: source.windowFrom }).toMillis(), toMs: now.plus({ days: source.windowTo }).toMillis() },
        siteZone: this.config.timezone,
        session,
      },
      report,
    );
    outcome.validators = read.validators;
    // The feed's keys, and its UIDs: an instance of a series that is still there but outside the window is kept.
    const held = new Set(result.keys);
    for (const uid of result.uids) held.add(uid);
    return held;
  }

  private async readFeed(source: SourceEntity, bounds: RunBounds): Promise<{ text: string; validators: RunOutcome['validators'] } | 'not modified'> {
    const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5' };
    if (source.etag) headers['if-none-match'] = source.etag;
    if (source.lastModified) headers['if-modified-since'] = source.lastModified;
    const timeoutMs = this.config.sourcesTimeoutSeconds * 1000;
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), bounds.deadline]);
    const failure = (err: unknown) => (bounds.deadline.aborted ? reasonOf(bounds.deadline) : (refusalOf(err)?.message ?? fetchFailure(err, timeoutMs)));
    let res: Response;
    try {
      res = await this.fetcher(source.url, { headers, signal });
    } catch (err) {
      throw new SourceUnreadable(`cannot fetch ${source.url}: ${failure(err)}`);
    }
    if (res.status === 304) {
      await res.body?.cancel();
      return 'not modified';
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new SourceUnreadable(`cannot fetch ${source.url}: HTTP ${res.status}`);
    }
    let text: string;
    try {
      text = await readBodyText(res, bounds.read.maxAnswerBytes!, bounds.read.spend);
    } catch (err) {
      if (err instanceof SiteError) throw err;
      if (err instanceof OutboundTooLarge) throw new SourceUnreadable(`${source.url}: ${err.message} (${bounds.read.answerSetting!})`);
      throw new SourceUnreadable(`cannot fetch ${source.url}: ${failure(err)}`);
    }
    return { text, validators: { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') } };
  }

  /**
   * `on_source_delete: trash` after a complete run (sources.md §2): the events this source wrote
   * whose origin key the run did not find go to the trash, as the DELETE route puts them there
   * (as the source's author). Only events: venues, organizers and terms may be shared with other
   * sources and local events (docs/compatibility.md).
   */
  private async trashGone(source: SourceEntity, held: Set<string>, author: string, outcome: RunOutcome): Promise<void> {
    const mine = await this.items.events(source.id);
    const actor = await this.writer.userByLogin(author);
    for (const item of mine) {
      await nextTurn(); // each trashing is a write: requests are answered between two
      if (held.has(item.sourceKey) || held.has(item.sourceKey.split('|')[0])) continue;
      const trashed = await this.trash(actor, item.localId, outcome);
      if (!trashed) continue;
      await this.items.forget(source.id, 'event', item.localId);
      await this.writer.forgetVersion({ source: source.kind === 'tec' ? TEC_SOURCE : ICS_SOURCE, kind: 'event', key: item.sourceKey });
    }
  }

  private async trash(actor: Actor | null, id: number, outcome: RunOutcome): Promise<boolean> {
    const status = await this.sources.eventStatus(id);
    if (status === null) return true; // deleted here for good already
    if (status === 'trash') return true;
    try {
      await this.deleter.removeById(actor, id, false);
      outcome.counts.trashed++;
      return true;
    } catch (err) {
      if (!(err instanceof WpError)) throw err;
      outcome.counts.failed++;
      if (outcome.errors.length < MAX_RUN_ERRORS) outcome.errors.push({ record: `event ${id}`, message: `not trashed: ${describeWpError(err)}` });
      return false;
    }
  }
}

/** The importers' report, counted into the run's outcome, with the first failures kept. */
class RunReport extends ImportReport {
  constructor(
    private readonly outcome: RunOutcome,
    private readonly moved: () => void,
    out: ReportStream = { write: () => undefined },
  ) {
    super(out);
  }

  override count(kind: ImportKind, result: ImportResult | 'failed'): void {
    super.count(kind, result);
    this.outcome.counts[result]++;
    this.moved();
  }

  override fail(kind: ImportKind, record: string, message: string): void {
    if (this.outcome.errors.length < MAX_RUN_ERRORS)
      this.outcome.errors.push({ record: record.startsWith(`${kind} `) ? record : `${kind} ${record}`, message });
    super.fail(kind, record, message);
  }
}
