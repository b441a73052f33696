import { useQueryClient } from '@tanstack/react-query';
import { useCountedPlays } from '../../player';
import { patchCachedPost, tellPlay } from '../api';

/**
 * Tells the server of each play that counts (issue 31) and shows the post's new count wherever
 * it is cached. Mounted once, beside the player (app/providers.tsx); renders nothing. A failure
 * is only logged: a play count is never worth interrupting the music for.
 */
export function PlayCounting() {
  const queryClient = useQueryClient();
  useCountedPlays((track) => {
    tellPlay(track.postId, track.index).then(
      (answer) => {
        const plays = answer?.plays_count;
        if (typeof plays === 'number' && Number.isFinite(plays)) {
          patchCachedPost(queryClient, track.postId, { plays_count: Math.max(0, plays) });
        }
      },
      (error: unknown) => console.warn('A play was not counted', error),
    );
  });
  return null;
}
