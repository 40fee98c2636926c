import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiLinks, currentLinks } from '../common/http/api-links';
import { AppConfig } from '../config/app-config';
import { ApiDocsService } from './api-docs.service';
import { buildRouteTable, RouteEntry } from './route-table';

/**
 * The REST root and the namespace index (spec README §1, endpoints.md §1–§2), and their
 * WordPress forms (compat.md): `/wp-json/` lists the namespace `tribe/events/v1` with its routes
 * under the alias paths. Each is written in the link form of the request.
 */
@Injectable()
export class RestRootService {
  /** Route tables and documents per link form (ApiLinks.key): built once each, from the one document. */
  private readonly routes = new Map<string, Record<string, RouteEntry>>();
  private readonly documents = new Map<string, OpenAPIObject>();

  constructor(
    private readonly config: AppConfig,
    private readonly docs: ApiDocsService,
  ) {}

  private routeTable(links: ApiLinks): Record<string, RouteEntry> {
    let table = this.routes.get(links.key);
    if (table === undefined) this.routes.set(links.key, (table = buildRouteTable(this.docs.getDocument(), links)));
    return table;
  }

  /** `{base_url}/` and, for the WordPress forms, `{base_url}/wp-json/` (or `?rest_route=/`). */
  restRoot(links: ApiLinks = currentLinks(this.config.baseUrl)) {
    return {
      name: 'Calendar Events',
      description: 'A calendar of events, venues and organizers',
      url: this.config.baseUrl,
      home: this.config.baseUrl,
      namespaces: [links.namespace],
      authentication: { basic: { description: 'HTTP Basic with a login and an application password' } },
      routes: this.routeTable(links),
      _links: { help: [{ href: links.href('/doc') }] },
    };
  }

  namespaceIndex() {
    const links = currentLinks(this.config.baseUrl);
    return {
      namespace: links.namespace,
      routes: this.routeTable(links),
      supports: ['sync-connect'],
      // For "subscribe" buttons (ical.md): the feed, whose webcal:// form calendar apps open.
      _links: { up: [{ href: links.indexHref() }], ical: [{ href: links.href('/events.ics') }] },
    };
  }

  /** The OpenAPI document, its server at the path the request came by. */
  document(): OpenAPIObject {
    const links = currentLinks(this.config.baseUrl);
    let doc = this.documents.get(links.key);
    if (doc === undefined) this.documents.set(links.key, (doc = { ...this.docs.getDocument(), servers: [{ url: links.serverUrl() }] }));
    return doc;
  }
}
