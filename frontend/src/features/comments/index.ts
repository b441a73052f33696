/**
 * The comments feature's public surface (docs/frontend.md, "Boundaries"): the post page shows
 * `CommentsSection` and tells it how to count a new or deleted comment on the post
 * (`CommentAddedHandler`, `CommentRemovedHandler`); on an audio post it hands over the player
 * (`MomentLink`), and shows the comments on a moment along the waveform (`useCommentMoments`).
 */
export { CommentsSection } from './comments-section';
export type { CommentAddedHandler, CommentRemovedHandler } from './api';
export { useCommentMoments } from './use-comment-moments';
export type { CommentMoment, DisplayComment, MomentLink } from './types';
