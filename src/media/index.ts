export { MediaModule } from './media.module';
export { MediaService } from './media.service';
export type { ImageJson, EmptyImageMeans, ImageChoice } from './media.service';
