import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToastProvider } from '../components/toast';
import { PlayerProvider } from '../features/player';
import { PlayCounting } from '../features/posts';
import { onSessionExpired } from '../lib/http';
import { createQueryClient } from '../lib/query-client';
import { sessionQueries } from '../lib/session';

/**
 * React Query, the toast messages and the audio player with its play counting, plus: when a call reports the session
 * expired, nobody is signed in any more. The player sits above the router so the music goes on
 * from page to page.
 */
export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  useEffect(
    () => onSessionExpired(() => queryClient.setQueryData(sessionQueries.me().queryKey, null)),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <PlayerProvider>
          <PlayCounting />
          {children}
        </PlayerProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
