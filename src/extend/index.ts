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

// ---- hooks: how to declare one --------------------------------------------------------------
// A provider declares itself a hook of a kind by `@Hook(KIND)` and is found while its module is
// loaded (README "Hooks"); each kind is declared by the feature that calls its hooks.
export { firstGiven, Hook, hookKind, Hooks } from '../common/feature/hooks';
export type { HookKind } from '../common/feature/hooks';
export type { RecordExtras, RecordHook, RecordHookContexts } from '../items';

// ---- hooks: events, their list and their iCalendar answers -----------------------------------
export { EVENT_HOOKS, EVENT_LIST_HOOKS, ICAL_HOOKS, EventWrites, EventsModule, EventReader, EventEntity, currentLinks } from '../events';
export { EXTENSION_ORIGIN } from '../events';
export type {
  ApiLinks,
  EventCheckContext,
  EventDeleteContext,
  EventHook,
  EventHookContexts,
  EventListHook,
  EventQueryExtension,
  EventWriteContext,
  EventWriteOrigin,
  IcalHook,
  IcalPlan,
  IcalProperty,
  IcalShape,
  IcalTimes,
} from '../events';

// ---- hooks: venues, organizers, terms, lists -----------------------------------------------
export type { ItemCheckContext, ItemDeleteContext, ItemHook, ItemWriteContext } from '../items';
export { VENUE_HOOKS, VENUE_LIST_HOOKS, VenueEntity, VenuesModule } from '../venues';
export type { VenueHook } from '../venues';
export { ORGANIZER_HOOKS, ORGANIZER_LIST_HOOKS, OrganizerEntity, OrganizersModule } from '../organizers';
export type { OrganizerHook } from '../organizers';
export { CATEGORY_LIST_HOOKS, TAG_LIST_HOOKS, TaxonomiesModule } from '../taxonomies';
export type { Taxonomy } from '../taxonomies';
export type { ListCondition, ListHook } from '../common/pagination';

// ---- hooks: the public pages and the editing form ------------------------------------------
export { EVENT_PAGE_HOOKS, ORGANIZER_PAGE_HOOKS, VENUE_PAGE_HOOKS } from '../pages';
export type { PageHook } from '../pages';
export { EVENT_FORM_HOOKS, REVIEW_HOOKS } from '../manage';
export type { EventFormContext, EventFormField, EventFormHook, EventFormQuestion, EventFormSection, ReviewHook, ReviewSubmitter } from '../manage';

// ---- hooks: every write, iCalendar imports, the OpenAPI document ---------------------------
export { WRITE_PARTICIPANTS } from '../database/write-participants';
export type { WriteParticipant } from '../database/write-participants';
export { ICS_SERIES_HOOKS } from '../imports';
export type { IcsSeriesHook, KeyedOccurrence } from '../imports';
export { addParameters, addProperties, API_DOC_HOOKS, requestBodySchemas } from '../rest-root';
export type { ApiDocHook } from '../rest-root';

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
