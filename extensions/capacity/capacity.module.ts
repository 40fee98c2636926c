import { Module, OnModuleInit } from '@nestjs/common';
import { ApiDocExtensions, CacheModule, EventExtensions, EventListExtensions, EventsModule, IndexModule } from '../../src/extend';
import { documentCapacity } from './capacity-api-doc';
import { CapacityEventExtension } from './capacity-event.extension';
import { CapacityListExtension } from './capacity-list.extension';
import { CapacityController, CapacityReader } from './capacity.controller';
import { CapacityStore } from './capacity.store';

/**
 * The capacity module: a team's module that lives outside src/ and uses only
 * the features' public extension points — EventExtensions (the field), EventListExtensions
 * (`min_capacity`), ApiDocExtensions (what /doc says of them) — plus a route and a cache of its
 * own. Its table, migrations, cache share and command are declared by CAPACITY_FEATURE.
 */
@Module({
  imports: [EventsModule, IndexModule, CacheModule],
  controllers: [CapacityController],
  providers: [CapacityStore, CapacityEventExtension, CapacityListExtension, CapacityReader],
})
export class CapacityModule implements OnModuleInit {
  constructor(
    private readonly eventExtensions: EventExtensions,
    private readonly listExtensions: EventListExtensions,
    private readonly field: CapacityEventExtension,
    private readonly filter: CapacityListExtension,
    docs: ApiDocExtensions,
  ) {
    // Now, not in onModuleInit: the document is built when the app is set up, before its init.
    docs.register(documentCapacity);
  }

  onModuleInit(): void {
    this.eventExtensions.register(this.field);
    this.listExtensions.register(this.filter);
  }
}
