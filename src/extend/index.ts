// The extension API: everything a module outside src/ (extensions/<name>/, or a CALENDAR_EXTENSIONS path)
// may use, in one place. Such a module imports from here and from packages, nothing else under
// src/ (eslint.config.mjs refuses it), so the core may reorganise its folders without breaking it.
// README "Extending" says how each part is used.

// ---- describing a feature ------------------------------------------------------------------
export type { ChangeKind, Feature, FeatureModule } from '../common/feature/feature';
export type { CliCommand, CliRun } from '../common/feature/cli-command';
export { parseUsage, UsageError } from '../common/feature/cli-command';

// ---- configuration -------------------------------------------------------------------------
export { API_NAMESPACE, AppConfig } from '../config/app-config';
export { countSetting, onOffSetting } from '../config/settings';
export type { Setting } from '../config/settings';

// ---- hooks: events -------------------------------------------------------------------------
export { EventExtensions, EventListExtensions, EventWrites, EventsModule, EventReader, EventEntity, currentLinks } from '../events';
export { EXTENSION_ORIGIN } from '../events';
export type {
  ApiLinks,
  EventCheckContext,
  EventDeleteContext,
  EventExtension,
  EventExtras,
  EventFormContext,
  EventFormField,
  EventFormQuestion,
  EventFormSection,
  EventListExtension,
  EventQueryExtension,
  EventWriteContext,
  EventWriteOrigin,
  IcalPlan,
  IcalProperty,
  IcalShape,
  IcalTimes,
} from '../events';

// ---- hooks: venues, organizers, terms, lists -----------------------------------------------
export { ItemExtensions } from '../items';
export type { ItemExtension, ItemExtras } from '../items';
export { VenueEntity, VenueExtensions, VenuesModule } from '../venues';
export { OrganizerEntity, OrganizerExtensions, OrganizersModule } from '../organizers';
export { TaxonomiesModule, TermListExtensions } from '../taxonomies';
export type { Taxonomy } from '../taxonomies';
export { ListExtensions } from '../common/pagination';
export type { ListCondition, ListExtension } from '../common/pagination';

// ---- hooks: every write, iCalendar imports, the OpenAPI document ---------------------------
export { WriteParticipants } from '../database/write-participants';
export type { WriteParticipant } from '../database/write-participants';
export { IcsSeriesHooks, IcsSeriesHooksModule } from '../common/ical/ics-series-hooks';
export type { IcsSeriesHook, SeriesInstance } from '../common/ical/ics-series-hooks';
export { addParameters, addProperties, ApiDocExtensions, IndexModule, requestBodySchemas } from '../index';
export type { ApiDocChange } from '../index';

// ---- writing: units of work and transactions -----------------------------------------------
export type { Tx } from '../database/tx';
export { UnitOfWork } from '../database/unit-of-work';
export { ChangeSet } from '../database/change-log';

// ---- reading: caches -----------------------------------------------------------------------
export { CacheModule } from '../common/cache/cache.module';
export { NamedCache, ReadModel } from '../common/cache/read-model';
export { DataVersion } from '../common/cache/data-version.service';

// ---- routes: requests, answers, errors, OpenAPI ----------------------------------------------
export type { Actor } from '../common/auth';
export { CurrentActor, PathId, RawInput, RawQuery } from '../common/http/request-context';
export { forbidden, invalidParam, invalidParams, WpError } from '../common/errors';
export { INVALID, toInt, toStrictBool, toList, toIdList } from '../common/params';
export type { Invalid } from '../common/params';
export { code } from '../common/http/route-docs';
export type { ErrorStatus, RouteText } from '../common/http/route-docs';
export { ExtensionRouteDocs } from './route-docs';
export type { ExtensionRoute } from './route-docs';

// ---- text ----------------------------------------------------------------------------------
export { stripTags } from '../common/text/autop';
