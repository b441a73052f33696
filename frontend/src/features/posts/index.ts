/**
 * The posts feature's public surface (docs/frontend.md, "Boundaries"): other features import
 * posts only from here. Home shows the feeds with `FeedList`; profiles list a person's posts
 * through `postQueries.byUser` and show them with `PostCard`. `countCachedComment` and
 * `uncountCachedComment` are what the post page hands the comments section, which knows nothing
 * of posts.
 */
export {
  LIST_TOPICS,
  POST_MESSAGES,
  countCachedComment,
  fetchPostPage,
  nextFeedCursor,
  uncountCachedComment,
  postQueries,
  postsErrorMessage,
  retryOnlyServerErrors,
  useViewerId,
  type PostPage,
  type PostPages,
} from './api';
export type { DisplayPost } from './types';
export { toDisplayPost } from './transform';
export { FeedList } from './components/feed-list';
export { PlayCounting } from './components/play-counting';
export { PostCard, playsText } from './components/post-card';
export { PostsTrackList } from './components/posts-track-list';
