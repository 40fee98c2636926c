import { finishLinkedItem, Json, jsonLdHead, LinkedPresentContext, linkedItemHead } from '../linked-items';
import type { OrganizerEntity } from './organizer.entity';
import { plainJsonLd } from '../common/text/autop';

/** Keys an organizer always has, empty or not (resources.md §3); the global ids are added last. */
const ALWAYS = ['id'];

/** An organizer as spec resources.md §3 gives it: keys in order, empty keys omitted. */
export function presentOrganizer(organizer: OrganizerEntity, ctx: LinkedPresentContext): Json {
  const body: Json = { phone: organizer.phone, website: organizer.website, email: organizer.email };
  if (ctx.jsonLd) body.json_ld = plainJsonLd(organizerJsonLd(organizer, ctx));
  return finishLinkedItem(linkedItemHead(organizer, 'organizer', ctx), body, ALWAYS, organizer, ctx.baseUrl);
}

/** schema.org Person (resources.md §7): `url` and `sameAs` are the website. */
export function organizerJsonLd(organizer: OrganizerEntity, ctx: LinkedPresentContext): Json {
  const ld = jsonLdHead('Person', organizer, organizer.website, ctx);
  ld.telephone = organizer.phone;
  ld.email = organizer.email;
  ld.sameAs = organizer.website;
  return ld;
}
