// What every post-like item (events, venues, organizers) shares: the item columns, statuses,
// slugs, authorship and publication dates, presentation helpers, and the item hook registry.
// Venues and organizers build on it in src/linked-items.
export * from './statuses';
export * from './list-visibility';
export * from './authorship';
export * from './publication-date';
export * from './item-slug';
export { chooseFreeSlugs, storeUnderFreeSlug } from './item-slugs.repository';
export * from './presentation';
export { ItemColumns, NAME_KEY_LENGTH, NamedItemColumns } from './item-columns';
export { ItemWriteDto } from './item-write.dto';
export { ItemHooks } from './item-hooks';
export type { ItemCheckContext, ItemDeleteContext, ItemHook, ItemHookContexts, ItemWriteContext } from './item-hooks';
export { RecordHooks } from './record-hooks';
export type { RecordExtras, RecordHook, RecordHookContexts } from './record-hooks';
export { DeleteItemQueryDto } from './delete-item.query.dto';
export { deleteForGood } from './permanent-delete';
export type { DeletedAnswer, PermanentDelete } from './permanent-delete';
