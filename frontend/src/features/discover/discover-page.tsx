import { useState } from 'react';
import { Link } from 'react-router';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/spinner';
import { UserLink } from '../../components/user-link';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { PostCard, PostsTrackList, toDisplayPost, type DisplayPost } from '../posts';
import { ListenButton } from '../profiles';
import styles from './discover-page.module.css';

type DiscoverJson = components['schemas']['DiscoverJson'];

export const DISCOVER_WORDS = {
  title: 'Discover',
  intro: 'What people are playing, liking and passing on right now.',
  trending: 'Trending this week',
  trendingEmpty: 'Nothing is trending yet: play, like and repost what you love.',
  rising: 'New and rising',
  risingEmpty: 'No new posts are catching on yet.',
  tags: 'Tags trending now',
  people: 'People to listen to',
  peopleEmpty: 'Listen to a few people and we will suggest whom they listen to.',
  failed: 'Failed to load Discover',
  listenedBy: (n: number) => `Listened to by ${n} ${n === 1 ? 'person' : 'people'} you listen to`,
} as const;

function discoverQuery(viewerId: string | null | undefined) {
  return queryOptions({
    queryKey: ['discover', viewerId ?? null] as const,
    queryFn: ({ signal }) => request<DiscoverJson>('/discover', { signal }),
    meta: { shows: ['posts', 'blocks', 'listening', 'profile'] },
  });
}

function shownPosts(list: DiscoverJson['trending']): DisplayPost[] {
  return list.map(toDisplayPost).filter((p): p is DisplayPost => p !== null);
}

/**
 * Discover (/discover, issue 31): trending this week (by the week's plays, likes, reposts and
 * comments, older activity counting less), new and rising (posts of the last two days by their
 * early engagement), the tags people use now, and, signed in, people whom the people one
 * listens to listen to. Each list's tracks play on from one to the next.
 */
export function DiscoverPage() {
  usePageTitle(DISCOVER_WORDS.title);
  const viewer = useViewer();
  const query = useQuery(discoverQuery(viewer?.id));
  const [error, setError] = useState<string | null>(null);
  if (query.isPending) return <PageSpinner label="Loading Discover" />;
  if (query.isError) return <Alert tone="error">{DISCOVER_WORDS.failed}</Alert>;
  const { tags, people } = query.data;
  const trending = shownPosts(query.data.trending);
  const rising = shownPosts(query.data.rising);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{DISCOVER_WORDS.title}</h1>
        <p className={styles.intro}>{DISCOVER_WORDS.intro}</p>
      </header>
      {tags.length > 0 ? (
        <section aria-labelledby="discover-tags" className={styles.section}>
          <h2 id="discover-tags" className={styles.heading}>
            {DISCOVER_WORDS.tags}
          </h2>
          <ul className={styles.tags}>
            {tags.map((t) => (
              <li key={t.tag}>
                <Link to={`/tag/${encodeURIComponent(t.tag)}`} className={styles.tag}>
                  #{t.tag}
                  <span className={styles.tagCount}>{t.posts}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <PostsSection id="discover-trending" title={DISCOVER_WORDS.trending} posts={trending} empty={DISCOVER_WORDS.trendingEmpty} />
      {viewer ? (
        <section aria-labelledby="discover-people" className={styles.section}>
          <h2 id="discover-people" className={styles.heading}>
            {DISCOVER_WORDS.people}
          </h2>
          {error ? (
            <Alert tone="error" onDismiss={() => setError(null)}>
              {error}
            </Alert>
          ) : null}
          {people.length === 0 ? (
            <p className={styles.muted}>{DISCOVER_WORDS.peopleEmpty}</p>
          ) : (
            <ul className={styles.people}>
              {people.map((p) => (
                <li key={p.user.id} className={styles.person}>
                  <UserLink userId={p.user.id} name={p.user.name} login={p.user.login} avatarUrl={p.user.avatar_url} compact />
                  <p className={styles.muted}>{DISCOVER_WORDS.listenedBy(p.listened_by)}</p>
                  <ListenButton user={p.user} onError={setError} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <PostsSection id="discover-rising" title={DISCOVER_WORDS.rising} posts={rising} empty={DISCOVER_WORDS.risingEmpty} />
    </div>
  );
}

function PostsSection({ id, title, posts, empty }: { id: string; title: string; posts: DisplayPost[]; empty: string }) {
  return (
    <section aria-labelledby={id} className={styles.section}>
      <h2 id={id} className={styles.heading}>
        {title}
      </h2>
      {posts.length === 0 ? (
        <EmptyState title={title} text={empty} />
      ) : (
        <PostsTrackList posts={posts}>
          <ol className={styles.posts} aria-label={title}>
            {posts.map((post, i) => (
              <li key={post.id}>
                <PostCard post={post} first={i === 0} />
              </li>
            ))}
          </ol>
        </PostsTrackList>
      )}
    </section>
  );
}
