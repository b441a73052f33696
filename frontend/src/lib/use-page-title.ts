import { useEffect } from 'react';

/** Sets the browser tab title to "<page> · SelfSound". */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = page ? `${page} · SelfSound` : 'SelfSound';
  }, [page]);
}
