import { code, type DocKind, type RouteText } from '../common/http/route-docs';
import type { LinkedItemType } from './linked-items';

/** A venue-like kind in the routes' documentation: items with a status, and their own `could-not-…` codes. */
export function linkedItemDocKind(kind: LinkedItemType): DocKind {
  return {
    noun: kind,
    article: kind === 'organizer' ? 'an' : 'a',
    linked: true,
    errors: (role) => (role === 'create' || role === 'update' ? { 400: [code(`could-not-${role}-${kind}`, `the ${kind} could not be saved`)] } : {}),
  };
}

/** What /doc says about the routes of venues and organizers, which behave alike (one text for both). */
export function linkedItemRouteTexts(kind: LinkedItemType): Record<'list' | 'create' | 'read' | 'update' | 'delete', RouteText> {
  const plural = `${kind}s`;
  const a = kind === 'organizer' ? 'an' : 'a';
  return {
    list: {
      summary: `List ${plural}`,
      description:
        `${kind[0].toUpperCase()}${kind.slice(1)}s, newest first, with paging. Anonymous callers see published ${plural} only; ` +
        `logged-in users also see the other ${plural} they may read. A page past the last answers 404.`,
    },
    create: {
      summary: `Create ${a} ${kind}`,
      description:
        `\`${kind}\` (the name) is required. When ${a} ${kind} with the same name (and the same description, if you give one) ` +
        `already exists outside the trash, no copy is made: the other fields you send are written onto it and it is answered. ` +
        `Contributors may create ${plural}, but what they publish is kept \`pending\` for review.`,
    },
    read: {
      summary: `Read ${a} ${kind}`,
      description: `One ${kind}, with its JSON-LD. ${a === 'an' ? 'An' : 'A'} ${kind} that is not published can be read only by its author, editors and administrators.`,
    },
    update: {
      summary: `Update ${a} ${kind}`,
      description: `Changes only the fields you send; the others keep their values. Authors and contributors may only edit their own ${plural}.`,
    },
    delete: {
      summary: `Delete ${a} ${kind}`,
      description: `Moves the ${kind} to the trash and removes it from its events, or with \`force=true\` deletes it for good.`,
    },
  };
}
