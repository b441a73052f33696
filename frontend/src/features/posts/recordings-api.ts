/**
 * A score that follows a recording (issue 35; docs/posts.md, "A score that follows a
 * recording"): the link from a sheet-music post's score to an audio post's track with its sync
 * map, read from either end, made and taken away by the score's author.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';
import { toPlayerTrack, type PlayerTrack } from '../player';
import type { FollowedRecording, SyncPoint } from '../scores';
import { toDisplayPost } from './transform';
import type { DisplayPost } from './types';

export type LinkedJson = components['schemas']['LinkedJson'];
type SyncEditJson = components['schemas']['SyncEditJson'];

const enc = encodeURIComponent;

export const recordingQueries = {
  /** The recordings a sheet-music post's scores follow, by score. */
  ofPost: (postId: string, viewerId: string | null | undefined) =>
    queryOptions({
      queryKey: ['recordings', 'of-post', postId, viewerId ?? null] as const,
      queryFn: ({ signal }) => request<LinkedJson[]>(`/posts/${enc(postId)}/recordings`, { signal }),
      enabled: viewerId !== undefined,
      retry: false,
      meta: { shows: ['recordings', 'posts', 'blocks'] },
    }),
  /** The scores following an audio post's tracks. */
  following: (postId: string, viewerId: string | null | undefined) =>
    queryOptions({
      queryKey: ['recordings', 'following', postId, viewerId ?? null] as const,
      queryFn: ({ signal }) => request<LinkedJson[]>(`/posts/${enc(postId)}/scores`, { signal }),
      enabled: viewerId !== undefined,
      retry: false,
      meta: { shows: ['recordings', 'posts', 'blocks'] },
    }),
};

export function useLinkRecording(postId: string) {
  return useMutation({
    mutationFn: (body: SyncEditJson) => request<unknown>(`/posts/${enc(postId)}/recording`, { method: 'PUT', json: body }),
    meta: { changes: ['recordings'] },
  });
}

export function useUnlinkRecording(postId: string) {
  return useMutation({
    mutationFn: (score: number) => request<void>(`/posts/${enc(postId)}/recording?score=${score}`, { method: 'DELETE' }),
    meta: { changes: ['recordings'] },
  });
}

/** The track a link names, as the player plays it; null when the post is not audio or lacks it. */
export function linkedTrack(post: DisplayPost | null, track: number): PlayerTrack | null {
  if (!post || post.type !== 'audio') return null;
  const item = post.content[track];
  return item ? toPlayerTrack(post.id, track, item) : null;
}

/** What a score's page plays along: the linked recording's track and the map. */
export function followedOf(link: LinkedJson): { recording: FollowedRecording; post: DisplayPost } | null {
  const post = toDisplayPost(link.post);
  const track = linkedTrack(post, link.track);
  if (!post || !track) return null;
  const points: SyncPoint[] = link.points.map((p) => ({ bar: p.bar, at_ms: p.at_ms }));
  return { recording: { track, points }, post };
}
