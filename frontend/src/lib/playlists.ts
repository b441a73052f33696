/**
 * Playlists (issue 31; docs/posts.md, "Playlists"): the calls and their queries, shared by the
 * playlists feature (the playlist page, a person's playlists) and the posts feature (adding a
 * track from the post page), which do not import each other. Every change names the
 * `playlists` topic, so whatever shows a playlist fetches it again.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from './api-schema';
import { request } from './http';

export type PlaylistJson = components['schemas']['PlaylistJson'];
export type PlaylistPageJson = components['schemas']['PlaylistPageJson'];
export type PlaylistItemJson = components['schemas']['PlaylistItemJson'];
export type PlaylistEditJson = components['schemas']['PlaylistEditJson'];

export const PLAYLIST_LIMITS = { title: 100, description: 1000, items: 500 } as const;

const enc = encodeURIComponent;

export const playlistQueries = {
  all: () => ['playlists'] as const,
  /** One playlist's page as the viewer sees it. */
  detail: (id: string, viewerId: string | null | undefined) =>
    queryOptions({
      queryKey: ['playlists', 'detail', id, viewerId ?? null] as const,
      queryFn: ({ signal }) => request<PlaylistPageJson>(`/playlists/${enc(id)}`, { signal }),
      meta: { shows: ['playlists', 'posts', 'blocks', 'profile'] },
    }),
  /** A person's playlists (their first 50), as the viewer sees them. */
  ofUser: (userId: string, viewerId: string | null | undefined) =>
    queryOptions({
      queryKey: ['playlists', 'of', userId, viewerId ?? null] as const,
      queryFn: ({ signal }) => request<PlaylistJson[]>(`/playlists/user/${enc(userId)}?limit=50`, { signal }),
      meta: { shows: ['playlists', 'blocks'] },
    }),
};

const changes = { changes: ['playlists'] } as const;

export function useCreatePlaylist() {
  return useMutation({
    mutationFn: (body: PlaylistEditJson) => request<PlaylistJson>('/playlists', { method: 'POST', json: body }),
    meta: changes,
  });
}

export function useEditPlaylist(id: string) {
  return useMutation({
    mutationFn: (body: PlaylistEditJson) => request<PlaylistJson>(`/playlists/${enc(id)}`, { method: 'PATCH', json: body }),
    meta: changes,
  });
}

export function useDeletePlaylist(id: string) {
  return useMutation({
    mutationFn: () => request<void>(`/playlists/${enc(id)}`, { method: 'DELETE' }),
    meta: changes,
  });
}

export function useAddToPlaylist() {
  return useMutation({
    mutationFn: ({ playlistId, postId, track }: { playlistId: string; postId: string; track: number }) =>
      request<PlaylistItemJson>(`/playlists/${enc(playlistId)}/items`, {
        method: 'POST',
        json: { post_id: postId, track },
      }),
    meta: changes,
  });
}

export function useRemoveFromPlaylist(id: string) {
  return useMutation({
    mutationFn: (itemId: string) => request<void>(`/playlists/${enc(id)}/items/${enc(itemId)}`, { method: 'DELETE' }),
    meta: changes,
  });
}

export function useMoveInPlaylist(id: string) {
  return useMutation({
    mutationFn: ({ itemId, position }: { itemId: string; position: number }) =>
      request<void>(`/playlists/${enc(id)}/items/${enc(itemId)}`, { method: 'PATCH', json: { position } }),
    meta: changes,
  });
}
