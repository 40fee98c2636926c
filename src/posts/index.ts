export { PostsModule } from './posts.module';
export { PostsService } from './posts.service';
export { PostsRepository } from './posts.repository';
export type { PostType } from './post.entity';
