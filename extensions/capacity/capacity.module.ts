import { Module } from '@nestjs/common';
import { CacheModule, EventsModule } from '../../src/extend';
import { CapacityApiDoc } from './capacity-api-doc';
import { CapacityEventHook } from './capacity-event.hook';
import { CapacityListHook } from './capacity-list.hook';
import { CapacityController, CapacityReader } from './capacity.controller';
import { CapacityRepository } from './capacity.repository';

/**
 * The capacity module: a team's module that lives outside src/ and uses only the published
 * extension API. Its hooks declare themselves (`@Hook(…)`) and are found because they are
 * providers here: the field (CapacityEventHook), `min_capacity` (CapacityListHook) and what
 * /doc says of them (CapacityApiDoc); plus a route and a cache of its own. Its table,
 * migrations, cache share and command are declared by CAPACITY_FEATURE.
 */
@Module({
  imports: [EventsModule, CacheModule],
  controllers: [CapacityController],
  providers: [CapacityRepository, CapacityEventHook, CapacityListHook, CapacityApiDoc, CapacityReader],
})
export class CapacityModule {}
