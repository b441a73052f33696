import { useInfiniteQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { BackButton } from '../../components/back-button';
import { usePageTitle } from '../../lib/use-page-title';
import { postQueries, useViewerId } from './api';
import { FeedList } from './components/feed-list';
import { normalizeTag } from './tags';
import styles from './tag-page.module.css';

export const TAG_PAGE_WORDS = {
  label: (tag: string) => `Posts tagged #${tag}`,
  emptyTitle: 'Nothing tagged yet',
  emptyText: (tag: string) => `Write #${tag} in a caption or a song's lyrics and it shows here.`,
  notATag: 'Not a tag',
  notATagText: 'A tag is made of letters, digits and _, with at least one letter.',
} as const;

/** The newest posts with a tag (/tag/:tag, issue 31), ten at a time, as the feeds list them. */
export function TagPage() {
  const raw = useParams().tag ?? '';
  const tag = normalizeTag(raw) ?? '';
  usePageTitle(tag ? `#${tag}` : TAG_PAGE_WORDS.notATag);
  const query = useInfiniteQuery(postQueries.byTag(tag, useViewerId()));
  return (
    <div className={styles.page}>
      <div className={styles.topBar}>
        <BackButton />
      </div>
      <header className={styles.header}>
        <h1 className={styles.title}>{tag ? `#${tag}` : TAG_PAGE_WORDS.notATag}</h1>
        {tag ? null : <p className={styles.text}>{TAG_PAGE_WORDS.notATagText}</p>}
      </header>
      {tag ? (
        <FeedList
          query={query}
          label={TAG_PAGE_WORDS.label(tag)}
          emptyTitle={TAG_PAGE_WORDS.emptyTitle}
          emptyText={TAG_PAGE_WORDS.emptyText(tag)}
          header={<h2 className="visually-hidden">{TAG_PAGE_WORDS.label(tag)}</h2>}
        />
      ) : null}
    </div>
  );
}
