// What events, venues and organizers share: the item columns, statuses, slugs, authorship and
// publication dates of every item; and the building blocks venues and organizers are made of
// (their shared list filters, representation, errors, repository and service).

// ---- every item (events too) ----
export * from './statuses';
export * from './list-visibility';
export * from './authorship';
export * from './publication-date';
export * from './item-slug';
export * from './presentation';
export { ItemColumns, NamedItemColumns } from './item-columns';
export { ItemWriteDto } from './item-write.dto';
export { ItemHooks } from './item-hooks';
export type { ItemCheckContext, ItemDeleteContext, ItemHook, ItemHookContexts, ItemWriteContext } from './item-hooks';
export { RecordHooks } from './record-hooks';
export type { RecordExtras, RecordHook, RecordHookContexts } from './record-hooks';
export { DeleteItemQueryDto } from './delete-item.query.dto';
export { deleteForGood } from './permanent-delete';
export type { DeletedAnswer, PermanentDelete } from './permanent-delete';

// ---- venues and organizers ----
export {
  EVENTS_TABLE,
  effectiveStatusIn,
  finishLinkedItem,
  searchCondition,
  searchFragments,
  jsonLdHead,
  linkedItemErrors,
  linkedItemHead,
  permalink,
} from './linked-items';
export type { EventLink, Json, LinkedItemEntity, LinkedItemQueryShape, LinkedPresentContext } from './linked-items';
export { LinkedItemFieldsDto, ListLinkedItemsQueryDto } from './linked-items.dto';
export { linkedItemRouteTexts } from './linked-item-docs';
export { linkedItemController } from './linked-items.controller';
export type { LinkedItemRoutes } from './linked-items.controller';
export { LinkedItemsRepository } from './linked-items.repository';
export { LinkedItems } from './linked-items.service';
export { linkedItemProviders, linkedItemTokens } from './linked-item-providers';
export type { LinkedItemTokens, LinkedItemWiring } from './linked-item-providers';
export type { LinkedItemReads } from './linked-item-reads';
export type { LinkedItemWrites } from './linked-item-writes';
export type { LinkedItemDeletes } from './linked-item-deletes';
export { PreparedCreate } from './linked-kind';
export type { LinkedItemRef, LinkedItemsParts, LinkedKind } from './linked-kind';
export { linkedItemFeature } from './linked-item-feature';
