import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Feature } from './common/feature/feature';
import { ConfigError } from './config/app-config';
import { EVENTS_FEATURE } from './events/events.feature';
import { GEO_FEATURE } from './geo/geo.feature';
import { IMPORTS_FEATURE } from './imports/imports.feature';
import { REST_ROOT_FEATURE } from './rest-root/rest-root.feature';
import { MANAGE_FEATURE } from './manage/manage.feature';
import { MEDIA_FEATURE } from './media/media.feature';
import { OPS_FEATURE } from './ops/ops.feature';
import { ORGANIZERS_FEATURE } from './organizers/organizers.feature';
import { PAGES_FEATURE } from './pages/pages.feature';
import { POSTS_FEATURE } from './posts/posts.feature';
import { RECURRENCE_FEATURE } from './recurrence/recurrence.feature';
import { SEED_FEATURE } from './seed/seed.feature';
import { SOURCES_FEATURE } from './sources/sources.feature';
import { SUBMISSIONS_FEATURE } from './submissions/submissions.feature';
import { SYNC_FEATURE } from './sync/sync.feature';
import { TAXONOMIES_FEATURE } from './taxonomies/taxonomies.feature';
import { USERS_FEATURE } from './users/users.feature';
import { VENUES_FEATURE } from './venues/venues.feature';

/**
 * The core's features: each describes itself in its own folder (Feature), and only this list
 * names them all. The app loads the modules of those enabled (AppModule.forRoot), the schema
 * takes every feature's entities and migrations (schema.ts), and the foundations get what the
 * features declare (change kinds, caches, settings) through FeatureDeclarationsModule. The extensions come
 * after them (installedFeatures). A test app may pass a list of its own (with a feature of its
 * own). The order is the modules' order in the app, and the change kinds' (sync.md lists them
 * so: event, venue, organizer, category, tag).
 */
export const FEATURES: readonly Feature[] = [
  OPS_FEATURE,
  USERS_FEATURE,
  POSTS_FEATURE,
  MEDIA_FEATURE,
  REST_ROOT_FEATURE,
  EVENTS_FEATURE,
  VENUES_FEATURE,
  ORGANIZERS_FEATURE,
  TAXONOMIES_FEATURE,
  SYNC_FEATURE,
  IMPORTS_FEATURE,
  SOURCES_FEATURE,
  SEED_FEATURE,
  GEO_FEATURE,
  RECURRENCE_FEATURE,
  PAGES_FEATURE,
  MANAGE_FEATURE,
  SUBMISSIONS_FEATURE,
];

/**
 * Where this code runs from: the repository (TypeScript, under ts-jest or ts-node) or its build
 * (`dist/`, JavaScript). The build mirrors the repository's folders (tsconfig's rootDir is the
 * repository), so an extension's compiled module is at the same path under `dist/`.
 */
const COMPILED = __filename.endsWith('.js');
const REPOSITORY = COMPILED ? join(__dirname, '..', '..') : join(__dirname, '..');
const BUILD = COMPILED ? join(REPOSITORY, 'dist') : REPOSITORY;

/** The folder whose subfolders are installed extensions, one each. */
export const EXTENSIONS_FOLDER = join(REPOSITORY, 'extensions');

/**
 * The installed features: the core's, then the extensions, each once: every subfolder of
 * `extensions/` (in name order), then the module paths of CALENDAR_EXTENSIONS (`paths`,
 * relative to `cwd`). An extension's module exports its Feature as `default`. A path that
 * cannot be loaded, or that exports no Feature, is a configuration error.
 */
export function installedFeatures(paths: readonly string[] = [], cwd = process.cwd()): Feature[] {
  const folders = existsSync(EXTENSIONS_FOLDER)
    ? readdirSync(EXTENSIONS_FOLDER, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => join(EXTENSIONS_FOLDER, e.name))
        .sort()
    : [];
  const modules = [...folders, ...paths.map((p) => resolve(cwd, p.trim().replace(/\.ts$/, '')))];
  // One module loaded twice (its folder and its index.ts) is one feature: Node's module cache gives the same object.
  const extensions = new Set(modules.map((source) => loadExtension(builtPath(source), source)));
  return [...FEATURES, ...extensions];
}

/** Where the module of an extension's source is in the code that runs (its copy under dist/ when built). */
function builtPath(source: string): string {
  const inRepository = relative(REPOSITORY, source);
  if (!COMPILED) return source;
  if (inRepository.startsWith('..') || isAbsolute(inRepository)) {
    throw new ConfigError([
      `CALENDAR_EXTENSIONS: ${source} is outside the repository, so the build does not compile it (put it in extensions/ or below the repository)`,
    ]);
  }
  return join(BUILD, inRepository);
}

function loadExtension(built: string, source: string): Feature {
  let exported: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extensions are known only from the configuration
    exported = (require(built) as { default?: unknown }).default;
  } catch (err) {
    const reason =
      (err as { code?: string }).code === 'MODULE_NOT_FOUND'
        ? 'not found; is it built? npm start builds it'
        : String((err as Error).message ?? err).split('\n')[0];
    throw new ConfigError([`extension ${relative(REPOSITORY, source) || source} could not be loaded (${reason})`]);
  }
  const feature = exported as Partial<Feature> | undefined;
  if (typeof feature?.name !== 'string') {
    throw new ConfigError([
      `extension ${relative(REPOSITORY, source)} exports no Feature as its default export (export default { name, modules, … } satisfies Feature)`,
    ]);
  }
  return feature as Feature;
}
