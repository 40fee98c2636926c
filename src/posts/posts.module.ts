import { Module } from '@nestjs/common';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';

@Module({ providers: [PostsService, PostsRepository], exports: [PostsService] })
export class PostsModule {}
