import { useEffect, useRef } from 'react';

/**
 * Object URLs for previews of picked files (CSP allows blob: images and media). Each holds its
 * file in memory until revoked: `revoke` when a file is removed, and every one left goes when
 * the page does.
 */
export function useObjectUrls() {
  const urls = useRef(new Set<string>());
  useEffect(() => {
    const live = urls.current;
    return () => {
      for (const url of live) URL.revokeObjectURL(url);
      live.clear();
    };
  }, []);
  return {
    create(file: Blob): string {
      const url = URL.createObjectURL(file);
      urls.current.add(url);
      return url;
    },
    revoke(url: string): void {
      URL.revokeObjectURL(url);
      urls.current.delete(url);
    },
  };
}
