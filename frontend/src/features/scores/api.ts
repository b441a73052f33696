/**
 * The scores feature's calls: a score's file, fetched through React Query so every score shown
 * asks for its file the same way and the post page, opened again, draws from what it has.
 */
import { queryOptions } from '@tanstack/react-query';
import { fetchScore } from './score-file';

export const scoreQueries = {
  all: () => ['scores'] as const,
  files: () => [...scoreQueries.all(), 'file'] as const,
  /**
   * A MusicXML file (.musicxml, .xml or .mxl, on our own origin) as the partwise Document that
   * OpenSheetMusicDisplay draws and the player reads (score-file.ts). A file at an address does
   * not change, so it is not asked for again while it is kept; one that cannot be fetched or
   * read fails at once, and the score offers it for download instead.
   */
  file: (url: string) =>
    queryOptions({
      queryKey: [...scoreQueries.files(), url] as const,
      queryFn: ({ signal }) => fetchScore(url, signal),
      staleTime: Infinity,
      retry: false,
      // A Document is kept as it came, not compared with the one before.
      structuralSharing: false,
    }),
};
