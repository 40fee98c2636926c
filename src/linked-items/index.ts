// Venues and organizers, the items an event links and embeds: what the two kinds share (entity
// shape, list filters, representation, errors), their repository base, their reads, writes and
// deletes made per kind by linkedItemProviders, their routes (linkedItemController) and their
// feature description (linkedItemFeature). Each kind's folder gives only what differs (LinkedKind).
export { LINKED_ITEM_TEXT } from './linked-item-text';
export {
  EVENTS_TABLE,
  LINKED_MESSAGE,
  finishLinkedItem,
  searchCondition,
  searchFragments,
  jsonLdHead,
  linkedItemErrors,
  linkedItemHead,
  permalink,
} from './linked-items';
export type { EventLink, Json, LinkedItemEntity, LinkedItemQueryShape, LinkedItemType, LinkedPresentContext } from './linked-items';
export { LinkedItemFieldsDto, ListLinkedItemsQueryDto } from './linked-items.dto';
export { linkedItemRouteTexts } from './linked-item-docs';
export { linkedItemController } from './linked-items.controller';
export type { LinkedItemRoutes } from './linked-items.controller';
export { LinkedItemsRepository } from './linked-items.repository';
export { linkedItemProviders, linkedItemTokens } from './linked-item-providers';
export type { LinkedItemTokens, LinkedItemWiring } from './linked-item-providers';
export type { LinkedItemReads } from './linked-item-reads';
export type { LinkedItemWrites } from './linked-item-writes';
export type { LinkedItemDeletes } from './linked-item-deletes';
export { PreparedCreate } from './linked-kind';
export type { LinkedItemRef, LinkedItemsParts, LinkedKind } from './linked-kind';
export { linkedItemFeature } from './linked-item-feature';
