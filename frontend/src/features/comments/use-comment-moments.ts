import { useQuery } from '@tanstack/react-query';
import { useViewer } from '../../lib/session';
import { commentQueries } from './api';
import type { DisplayComment } from './types';

const NONE: readonly DisplayComment[] = [];

/**
 * The post's comments on a moment of its tracks (GET /posts/{id}/moments), newest first, for
 * the marks along an audio post's waveform; asked only when `enabled` (an audio post), and as
 * whoever is signed in (blocked people's comments are left out).
 */
export function useCommentMoments(postId: string, enabled: boolean): readonly DisplayComment[] {
  const viewer = useViewer();
  const viewerId = viewer === undefined ? undefined : (viewer?.id ?? null);
  const moments = useQuery(commentQueries.moments(postId, viewerId, enabled));
  return moments.data ?? NONE;
}
