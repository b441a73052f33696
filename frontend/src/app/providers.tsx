import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToastProvider } from '../components/toast';
import { onSessionExpired } from '../lib/http';
import { createQueryClient } from '../lib/query-client';
import { sessionQueries } from '../lib/session';

/**
 * React Query and the toast messages, plus: when a call reports the session expired, nobody is
 * signed in any more.
 */
export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  useEffect(
    () => onSessionExpired(() => queryClient.setQueryData(sessionQueries.me().queryKey, null)),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
