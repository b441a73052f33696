/**
 * The comments feature's public surface (docs/frontend.md, "Boundaries"): the post page shows
 * `CommentsSection` and tells it how to count a new comment on the post (`CommentAddedHandler`).
 */
export { CommentsSection } from './comments-section';
export type { CommentAddedHandler } from './api';
