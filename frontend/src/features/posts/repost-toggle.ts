/**
 * Reposting (POST /posts/{id}/repost, a toggle; issue 31), loaded when a repost button is first
 * pressed. Optimistic as a like is: the button has flipped the post everywhere it is cached
 * (`flipRepost`); the server's answer then stands, and a failure restores the state before (and
 * is thrown to the button).
 */
import type { QueryClient } from '@tanstack/react-query';
import { request } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';
import { patchCachedPost } from './api';
import type { RepostJson } from './types';

/** What a repost is toggled from: the post's state when the button was pressed. */
export interface RepostState {
  user_reposted: boolean;
  reposts_count: number;
}

export async function sendRepost(queryClient: QueryClient, postId: string, before: RepostState): Promise<void> {
  try {
    const answer = await request<Lenient<RepostJson> | undefined>(`/posts/${encodeURIComponent(postId)}/repost`, {
      method: 'POST',
    });
    if (typeof answer?.user_reposted === 'boolean' && typeof answer.reposts_count === 'number') {
      patchCachedPost(queryClient, postId, { user_reposted: answer.user_reposted, reposts_count: answer.reposts_count });
    }
  } catch (error) {
    console.error('Repost failed', error);
    patchCachedPost(queryClient, postId, before);
    throw error;
  }
}
