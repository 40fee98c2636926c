import { Module } from '@nestjs/common';
import { PostsModule } from '../posts';
import { MediaRepository } from './media.repository';
import { MediaService } from './media.service';

@Module({ imports: [PostsModule], providers: [MediaService, MediaRepository], exports: [MediaService] })
export class MediaModule {}
