/**
 * The comment types this feature works with. They are defined with the other wire types of the
 * posts area (features/posts/types.ts) and reach here through the posts feature's public module.
 */
export type { CommentJson, DisplayComment, MentionJson, MentionUserJson } from '../posts/api';
