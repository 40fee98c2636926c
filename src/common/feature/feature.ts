import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CliCommand } from './cli-command';
import type { AppConfig } from '../../config/app-config';
import type { Setting } from '../../config/settings';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- migration and entity classes are classes of any shape */

/**
 * How a feature of the service describes itself, once, in its own folder (extending.md §2).
 * The composition root (src/features.ts) lists the core's features and finds the extensions
 * (CALENDAR_EXTENSIONS, the `extensions/` folder); the foundations (common/, database/,
 * config/) learn of a feature only through what it declares here, and name none.
 *
 * A feature without a switch is always on. One with a switch (`switch`, an on/off setting of
 * its own) or `enabled` is on when they say so; switched off, its module is not loaded (no
 * route, field, parameter, hook, command or document of it), but its tables stay and its
 * migrations still run, so that turning it on again finds its data.
 */
export interface Feature {
  /** A short name, unique among the features: `events`, `geo`, `recurrence`. */
  readonly name: string;
  /**
   * The Nest module(s) the app loads while the feature is on; a function of the configuration
   * for a module that is built from it (OpsModule.forRoot).
   */
  readonly modules?: readonly FeatureModule[] | ((config: AppConfig) => readonly FeatureModule[]);
  /**
   * The settings it reads (environment variables), checked at start-up with the core's: a bad
   * value stops the start. Read with `config.get(setting)`.
   */
  readonly settings?: readonly Setting<unknown>[];
  /** Its on/off setting (`CALENDAR_TICKETS=on|off`): the feature is on when it says on. Listed in `settings` too. */
  readonly switch?: Setting<boolean>;
  /** Whether the feature is on with this configuration, for a rule beyond its switch; absent: on (or as the switch says). */
  enabled?(config: AppConfig): boolean;
  /**
   * App-wide set-up the feature needs once the app is built and before it serves (Fastify
   * plugins, hooks), run by configureApp in the features' order while the feature is on.
   */
  setup?(app: NestFastifyApplication, config: AppConfig): Promise<void> | void;
  /** Routes (Fastify paths) whose anonymous answers the response cache may keep while the feature is on. */
  readonly cacheableRoutes?: readonly string[];
  /** Its TypeORM entities (its tables). */
  readonly entities?: readonly Function[];
  /**
   * Its migrations per engine, applied and reverted with the core's, in timestamp order, and the
   * folder that holds them (`folder`, with `sqlite/` and `mysql/` inside, each with an
   * `index.ts`): `migration:generate` writes the feature's next pair there.
   */
  readonly migrations?: { readonly sqlite: readonly Function[]; readonly mysql: readonly Function[]; readonly folder?: string };
  /** The kinds of items it adds to the change log (sync.md), with where their rows are. */
  readonly changeKinds?: readonly ChangeKind[];
  /** Its read-model caches with their shares of CALENDAR_CACHE_MB (the shares of all features add up to at most 1). */
  readonly caches?: Readonly<Record<string, number>>;
  /** Its list collections (each gets `<collection>.totals` and `<collection>.page-ids` caches, named in `caches`). */
  readonly listCollections?: readonly string[];
  /** Its commands of `npm run cli -- …`, by name. */
  readonly commands?: Readonly<Record<string, CliCommand>>;
}

export type FeatureModule = Type<unknown> | DynamicModule;

/** Whether a feature is on with this configuration: its switch says on (if it has one) and `enabled` agrees. */
export function isEnabled(feature: Feature, config: AppConfig): boolean {
  return (feature.switch === undefined || config.get(feature.switch)) && (feature.enabled?.(config) ?? true);
}

/** Every setting a feature declares: its switch, then its other settings. */
export function settingsOf(feature: Feature): Setting<unknown>[] {
  const settings: Setting<unknown>[] = [...(feature.switch ? [feature.switch] : []), ...(feature.settings ?? [])];
  return settings.filter((s, i) => settings.indexOf(s) === i);
}

/** The features that are on with this configuration (one without a switch always is). */
export function enabledFeatures(features: readonly Feature[], config: AppConfig): Feature[] {
  return features.filter((f) => isEnabled(f, config));
}

/** The modules the app loads: those of the enabled features, in their order. */
export function featureModules(features: readonly Feature[], config: AppConfig): FeatureModule[] {
  return enabledFeatures(features, config).flatMap((f) => (typeof f.modules === 'function' ? f.modules(config) : (f.modules ?? [])));
}

/**
 * One kind of item in the change log (sync.md): `event`, `venue`, … A kind whose rows have a
 * status (`statusTable`) is told to a reader by that status; otherwise it is always public.
 */
export interface ChangeKind {
  /** The change log's `type` (at most 16 characters). */
  readonly type: string;
  /**
   * Where the kind's rows are and how to read an item's state (author, status, publication and
   * modification times) from them: the table, and an optional condition on its row `t` that
   * picks this kind's rows (for kinds sharing a table, like categories and tags).
   */
  readonly state: {
    readonly table: string;
    /**
     * SQL of each state column on the row `t`, or of constants: author_id, status, date_utc,
     * modified_utc. Absent: the row's own columns of those names.
     */
    readonly columns?: readonly [string, string, string, string];
    /** SQL condition on `t` (e.g. `t.taxonomy = 'tag'`); absent: every row of the table. */
    readonly where?: string;
  };
  /** Whether its items carry a status (published or not); false: always public (terms). */
  readonly hasStatus: boolean;
  /**
   * Events embed items of this kind (a venue, an organizer, a term): the change kind of those
   * events (`type`), and the SQL that gives the ids of the events linked to some items,
   * `SELECT … AS id FROM … WHERE … IN` followed by the list. A change of such an item is a
   * change of each of those events too (ChangeSet).
   */
  readonly linkedEvents?: { readonly type: string; readonly sql: string };
  /** Its collection under the API root (`events`): an item's `rest_url` in the change feed and webhooks is `/{collection}/{id}`. */
  readonly collection?: string;
}

/** The installed features and those on, injectable (ConfigModule provides it): for configureApp and `cli help`. */
export class InstalledFeatures {
  constructor(
    readonly all: readonly Feature[],
    readonly enabled: readonly Feature[],
  ) {}
}
