// What other features use of sources: the module, its service and the values its forms offer.
export { SourcesModule } from './sources.module';
export { SourcesService } from './sources.service';
export { ON_SOURCE_DELETE, SOURCE_KINDS, SOURCE_STATUSES } from './source-input';
