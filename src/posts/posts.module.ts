import { Global, Module } from '@nestjs/common';
import { PostsService } from './posts.service';

@Global()
@Module({ providers: [PostsService], exports: [PostsService] })
export class PostsModule {}
