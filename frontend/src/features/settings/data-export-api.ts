/**
 * "Download my data"'s calls (issue 36; beyond spec §7; docs/data-export.md): the latest
 * archive, asked again every few seconds while it is being prepared, and asking for a new one.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';

export type DataExport = components['schemas']['DataExportJson'];
export type DataExportState = 'none' | 'preparing' | 'ready' | 'failed';

/** How often the status is asked again while an archive is being prepared. */
export const PREPARING_POLL_MS = 4000;

export function stateOf(status: DataExport | undefined): DataExportState | undefined {
  const state = status?.state;
  return state === 'preparing' || state === 'ready' || state === 'failed' ? state : state ? 'none' : undefined;
}

const key = (viewerId: string | undefined) => ['account', 'data-export', viewerId ?? null] as const;

export const dataExportQueries = {
  status: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: key(viewerId),
      queryFn: ({ signal }) => request<DataExport>('/account/data-export', { signal, sessionScoped: true }),
      refetchInterval: (query) => (stateOf(query.state.data) === 'preparing' ? PREPARING_POLL_MS : false),
    }),
};

export function useRequestDataExport(viewerId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<DataExport>('/account/data-export', { method: 'POST', sessionScoped: true }),
    onSuccess: (status) => queryClient.setQueryData(key(viewerId), status),
  });
}
