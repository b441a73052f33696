import { DownloadIcon } from '../../../components/first-load-icons';
import { downloadName } from '../../../lib/format';

export const DOWNLOAD = 'Download';

/**
 * 'Download' for one file of a post (a score, a track): saved under its title with the stored
 * file's extension (`downloadName`), named "Download {title}" for screen readers.
 */
export function DownloadLink({
  url,
  title,
  className,
  textClassName,
}: {
  url: string;
  title: string;
  className?: string;
  /** For the word beside the icon (a card hides it on narrow screens). */
  textClassName?: string;
}) {
  return (
    <a href={url} download={downloadName(title, url)} className={className} aria-label={`${DOWNLOAD} ${title}`}>
      <DownloadIcon size={18} />
      <span className={textClassName}>{DOWNLOAD}</span>
    </a>
  );
}
