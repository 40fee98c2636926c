import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Actor, assertCan, can } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { invalidParam, invalidParams, WpError } from '../common/errors';
import { checkOutboundUrl, OutboundUnresolved } from '../common/net/outbound';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { isSealed, sealSecret } from '../common/crypto/secret-box';
import { TermsService } from '../taxonomies';
import { UsersService } from '../users';
import { readSourceWrite, SourceKind, DEFAULT_WINDOW } from './source-input';
import { SourceEntity, SourceRunEntity } from './source.entity';
import { SourceRunsRepository } from './source-runs.repository';
import { SourcesRepository } from './sources.repository';
import { PASSWORD_CONTEXT } from './source-secrets';
import { nextRunAfter } from './source-schedule';

export const SOURCE_INVALID_ID = 'rest_source_invalid_id';
export const SOURCE_BUSY = 'rest_source_busy';
/** sources.md §1: the last 50 runs. */
const RUNS_LISTED = 50;
/** Runs kept per source (older ones are removed as new ones start). */
const RUNS_KEPT = 200;

export const sourceNotFound = () => new WpError(SOURCE_INVALID_ID, 'Invalid source ID.', 404);
const sourceBusy = () => new WpError(SOURCE_BUSY, 'This source is being imported now.', 409);

export interface RunJson {
  id: number;
  source: number;
  trigger: string;
  status: string;
  started_utc: string | null;
  finished_utc: string | null;
  created: number;
  updated: number;
  unchanged: number;
  kept_local: number;
  trashed: number;
  failed: number;
  errors: { record: string; message: string }[];
}

export function presentRun(run: SourceRunEntity): RunJson {
  return {
    id: run.id,
    source: run.sourceId,
    trigger: run.trigger,
    status: run.status,
    started_utc: run.startedUtc,
    finished_utc: run.finishedUtc,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    kept_local: run.keptLocal,
    trashed: run.trashed,
    failed: run.failed,
    errors: JSON.parse(run.errors) as RunJson['errors'],
  };
}

/**
 * The sources routes (sources.md §1–2), administrators only (auth.md §2 "manage sources"). A run
 * is started by a compare-and-set on the source's `current_run_id`, in the transaction that
 * inserts the run: of two starts at once (on any instances) one gets the source, the other a
 * `409 rest_source_busy` (by hand) or nothing (the schedule).
 */
@Injectable()
export class SourcesService implements OnApplicationBootstrap {
  private readonly woken: (() => void)[] = [];
  private readonly logger = new Logger('Sources');

  constructor(
    private readonly sources: SourcesRepository,
    private readonly runs: SourceRunsRepository,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersService,
    private readonly terms: TermsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const sealed = await this.sealStoredPasswords();
      if (sealed > 0) this.logger.log(`stored ${sealed} source password(s) encrypted with CALENDAR_WEBHOOK_KEY`);
    } catch (err) {
      this.logger.warn(`source passwords not encrypted at start: ${(err as Error).message}`);
    }
  }

  /**
   * With CALENDAR_WEBHOOK_KEY set, passwords stored before it (as given) are stored encrypted, at
   * every start; each row only while it still holds what was read. Returns how many.
   */
  async sealStoredPasswords(): Promise<number> {
    const key = this.config.webhookKey;
    if (key === undefined) return 0;
    let sealed = 0;
    for (const { id, password } of await this.sources.passwords()) {
      if (password === null || isSealed(password)) continue;
      if (await this.sources.replacePassword(id, password, sealSecret(password, key, PASSWORD_CONTEXT))) sealed++;
    }
    return sealed;
  }

  /** The worker hears of runs queued here (so a run by hand starts at once). */
  onQueued(wake: () => void): void {
    this.woken.push(wake);
  }

  async list(actor: Actor | null): Promise<{ sources: Record<string, unknown>[] }> {
    assertCan(actor, 'manage_sources');
    const rows = await this.sources.all();
    return { sources: await this.presentAll(rows) };
  }

  async get(actor: Actor | null, id: number): Promise<Record<string, unknown>> {
    assertCan(actor, 'manage_sources');
    return this.present(await this.find(id));
  }

  async create(actor: Actor | null, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const input = readSourceWrite(body);
    assertCan(actor, 'manage_sources');
    const kind = input.kind as SourceKind;
    await this.checkUrl(input.url!);
    const authorId = input.author === undefined ? actor!.id : await this.authorId(input.author);
    const categories = await this.categoryIds(actor, input.categories ?? []);
    const now = nowUtcSql();
    const intervalMinutes = input.interval_minutes ?? 60;
    const enabled = input.enabled ?? true;
    const window = input.window_days ?? DEFAULT_WINDOW;
    const row = await this.unitOfWork.runUnlogged((tx) =>
      this.sources.insert(tx, {
        kind,
        url: input.url!,
        intervalMinutes,
        enabled,
        status: input.status ?? (kind === 'ics' ? 'publish' : null),
        categories: JSON.stringify(categories),
        authorId,
        login: input.login ?? null,
        password: input.password == null ? null : sealSecret(input.password, this.config.webhookKey, PASSWORD_CONTEXT),
        windowFrom: window[0],
        windowTo: window[1],
        keepLocalEdits: input.keep_local_edits ?? true,
        onSourceDelete: input.on_source_delete ?? 'trash',
        // A new source runs at once (then every interval): adding it is all it takes.
        nextRunUtc: enabled && intervalMinutes > 0 ? now : null,
        failures: 0,
        currentRunId: null,
        lastRunId: null,
        lastSuccessUtc: null,
        etag: null,
        lastModified: null,
        createdUtc: now,
        modifiedUtc: now,
      }),
    );
    this.woken.forEach((wake) => wake());
    return this.present(row);
  }

  async update(actor: Actor | null, id: number, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    assertCan(actor, 'manage_sources');
    const row = await this.find(id);
    const input = readSourceWrite(body, row.kind as SourceKind);
    const changes: Partial<SourceEntity> = {};
    if (input.url !== undefined && input.url !== row.url) {
      await this.checkUrl(input.url);
      changes.url = input.url;
      // Another feed: its validators are not this one's.
      changes.etag = null;
      changes.lastModified = null;
    }
    if (input.author !== undefined) changes.authorId = await this.authorId(input.author);
    if (input.categories !== undefined) changes.categories = JSON.stringify(await this.categoryIds(actor, input.categories));
    if (input.interval_minutes !== undefined) changes.intervalMinutes = input.interval_minutes;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (input.status !== undefined) changes.status = input.status;
    if (input.login !== undefined) changes.login = input.login;
    if (input.password !== undefined) changes.password = input.password === null ? null : sealSecret(input.password, this.config.webhookKey, PASSWORD_CONTEXT);
    if (input.window_days !== undefined) [changes.windowFrom, changes.windowTo] = input.window_days;
    if (input.keep_local_edits !== undefined) changes.keepLocalEdits = input.keep_local_edits;
    if (input.on_source_delete !== undefined) changes.onSourceDelete = input.on_source_delete;
    if (changes.intervalMinutes !== undefined || changes.enabled !== undefined) {
      const next = { ...row, ...changes };
      const lastRun = row.lastRunId === null ? null : await this.runs.find(row.lastRunId);
      changes.nextRunUtc = nextRunAfter(next, lastRun?.finishedUtc ?? null, nowUtcSql(), this.config.sourcesMinuteSeconds);
    }
    changes.modifiedUtc = nowUtcSql();
    await this.unitOfWork.runUnlogged((tx) => this.sources.update(tx, id, changes));
    this.woken.forEach((wake) => wake());
    return this.present(await this.find(id));
  }

  /** Deletes the source, its runs and its record of what it wrote; the events stay (sources.md §1). */
  async remove(actor: Actor | null, id: number): Promise<{ deleted: true; previous: Record<string, unknown> }> {
    assertCan(actor, 'manage_sources');
    const previous = await this.present(await this.find(id));
    await this.unitOfWork.runUnlogged((tx) => this.sources.remove(tx, id));
    return { deleted: true, previous };
  }

  async listRuns(actor: Actor | null, id: number): Promise<{ runs: RunJson[] }> {
    assertCan(actor, 'manage_sources');
    await this.find(id);
    const rows = await this.runs.latest(id, RUNS_LISTED);
    return { runs: rows.map(presentRun) };
  }

  /** POST /sources/{id}/run: `202` with the queued run, `409 rest_source_busy` while one goes. */
  async runNow(actor: Actor | null, id: number): Promise<RunJson> {
    assertCan(actor, 'manage_sources');
    await this.find(id);
    const run = await this.start(id, 'manual');
    if (run === null) throw sourceBusy();
    this.woken.forEach((wake) => wake());
    return presentRun((await this.runs.find(run)) ?? ({} as SourceRunEntity));
  }

  /**
   * Queues a run of the source and makes it the source's current one, unless a run of it is
   * queued or running (then null, and nothing is written). Runs beyond the RUNS_KEPT newest go.
   */
  async start(sourceId: number, trigger: 'manual' | 'schedule'): Promise<number | null> {
    try {
      return await this.unitOfWork.runUnlogged(async (tx) => {
        const runId = await this.runs.queue(tx, sourceId, trigger, nowUtcSql());
        if (!(await this.sources.claim(tx, sourceId, runId))) throw new Busy();
        await this.runs.prune(tx, sourceId, RUNS_KEPT);
        return runId;
      });
    } catch (err) {
      if (err instanceof Busy) return null;
      throw err;
    }
  }

  private async find(id: number): Promise<SourceEntity> {
    const row = await this.sources.find(id);
    if (!row) throw sourceNotFound();
    return row;
  }

  private async present(row: SourceEntity): Promise<Record<string, unknown>> {
    return (await this.presentAll([row]))[0];
  }

  /** Sources as answered, their runs and authors read in one query each (not per source). */
  private async presentAll(rows: SourceEntity[]): Promise<Record<string, unknown>[]> {
    const runIds = rows.flatMap((r) => [r.currentRunId, r.lastRunId]).filter((id): id is number => id !== null);
    const runs = new Map((await this.runs.findMany(runIds)).map((r) => [r.id, r]));
    const logins = await this.sources.logins([...new Set(rows.map((r) => r.authorId))]);
    return rows.map((row) => {
      // The run going now, else the last one that ended.
      const run = (row.currentRunId !== null ? runs.get(row.currentRunId) : undefined) ?? (row.lastRunId !== null ? runs.get(row.lastRunId) : undefined);
      return {
        id: row.id,
        kind: row.kind,
        url: row.url,
        interval_minutes: row.intervalMinutes,
        enabled: Boolean(row.enabled),
        status: row.status,
        categories: JSON.parse(row.categories) as number[],
        author: logins.get(row.authorId) ?? null,
        window_days: row.kind === 'ics' ? [row.windowFrom, row.windowTo] : null,
        keep_local_edits: Boolean(row.keepLocalEdits),
        on_source_delete: row.onSourceDelete,
        last_run: run ? presentRun(run) : null,
        next_run_utc: row.nextRunUtc,
        created_utc: row.createdUtc,
        modified_utc: row.modifiedUtc,
      };
    });
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await checkOutboundUrl(url, { allowPrivate: this.config.sourcesAllowPrivate });
    } catch (err) {
      if (err instanceof OutboundUnresolved)
        throw invalidParam('url', `The host name ${err.host} does not resolve (${err.code}): check the name, or this server's DNS and network.`);
      throw invalidParam('url', 'Must be an http or https URL of a public address (CALENDAR_SOURCES_ALLOW_PRIVATE=on allows private ones).');
    }
  }

  /** A user who may write events (a contributor at least), by login. */
  private async authorId(login: string): Promise<number> {
    const user = await this.users.findByLogin(login);
    if (!user || !can({ id: user.id, login: user.login, role: user.role }, 'create_items')) {
      throw invalidParams({ author: 'Must be the login of an existing user who may write events.' });
    }
    return user.id;
  }

  /** Category ids: an id must name a category; a name finds one (slug, name) or creates it at the top level. */
  private async categoryIds(actor: Actor | null, list: (number | string)[]): Promise<number[]> {
    const ids: number[] = [];
    for (const item of list) {
      if (typeof item === 'number') {
        const found = await this.terms.getMany('category', [item]);
        if (!found.has(item)) throw invalidParams({ categories: `No category has the id ${item}.` });
        ids.push(item);
        continue;
      }
      const existing = await this.terms.resolveFilter('category', { items: [item] });
      ids.push(existing?.[0] ?? (await this.terms.create(actor, 'category', { name: item })).id);
    }
    return [...new Set(ids)];
  }
}

class Busy extends Error {}
