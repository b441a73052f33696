// Its own module: only the pages that show sizes (lazy chunks) load it.
/** A size for people: '820 KB', '3.4 MB', '1.2 GB' (1 MB = 2^20 bytes, as the limits count). */
export function formatFileSize(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / MB;
  if (mb < 1024) return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
  return `${(mb / 1024).toFixed(1)} GB`;
}
