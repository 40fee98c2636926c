import { Module } from '@nestjs/common';
import { PostsModule } from '../posts';
import { MediaService } from './media.service';

@Module({ imports: [PostsModule], providers: [MediaService], exports: [MediaService] })
export class MediaModule {}
