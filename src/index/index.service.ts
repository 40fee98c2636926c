import { Injectable } from '@nestjs/common';
import { API_NAMESPACE, AppConfig } from '../config/app-config';
import { ApiDocsService } from './api-docs.service';
import { buildRouteIndex, RouteEntry } from './route-index';

/** The REST root and the namespace index (spec README §1, endpoints.md §1–§2). */
@Injectable()
export class IndexService {
  private routes: Record<string, RouteEntry> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly docs: ApiDocsService,
  ) {}

  private routeTable(): Record<string, RouteEntry> {
    this.routes ??= buildRouteIndex(this.docs.getDocument(), this.config.baseUrl);
    return this.routes;
  }

  restRoot() {
    return {
      name: 'Calendar Events',
      description: 'A calendar of events, venues and organizers',
      url: this.config.baseUrl,
      home: this.config.baseUrl,
      namespaces: [API_NAMESPACE],
      authentication: { basic: { description: 'HTTP Basic with a login and an application password' } },
      routes: this.routeTable(),
      _links: { help: [{ href: `${this.config.apiRoot}/doc` }] },
    };
  }

  namespaceIndex() {
    return {
      namespace: API_NAMESPACE,
      routes: this.routeTable(),
      supports: ['sync-connect'],
      // For "subscribe" buttons (ical.md): the feed, whose webcal:// form calendar apps open.
      _links: { up: [{ href: `${this.config.baseUrl}/` }], ical: [{ href: `${this.config.apiRoot}/events.ics` }] },
    };
  }

  document() {
    return this.docs.getDocument();
  }
}
