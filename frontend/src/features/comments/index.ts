/**
 * The comments feature's public surface (docs/frontend.md, "Boundaries"): the post page shows
 * `CommentsSection` and tells it how to count a new or deleted comment on the post
 * (`CommentAddedHandler`, `CommentRemovedHandler`).
 */
export { CommentsSection } from './comments-section';
export type { CommentAddedHandler, CommentRemovedHandler } from './api';
