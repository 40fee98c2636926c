export { PostsModule } from './posts.module';
export { PostsService } from './posts.service';
export type { PostType } from './post.entity';
