export { SyncModule } from './sync.module';
export { ChangesService } from './changes.service';
