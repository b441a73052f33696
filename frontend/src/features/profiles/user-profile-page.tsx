import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { RoleBadge, roleForTagId } from '../../components/role-badge';
import { PageSpinner } from '../../components/spinner';
import { StatusPage } from '../../components/status-page';
import { ApiError } from '../../lib/http';
import { RETRY_WORDS, canRetry } from '../../lib/retry-words';
import { usePageTitle } from '../../lib/use-page-title';
import { useViewer } from '../../lib/session';
import { profileQueries, type Profile } from './api';
import { BlockMenu } from './components/block-menu';
import { ListenButton } from './components/listen-button';
import { ProfileHeader } from './components/profile-header';
import { PostCard, PostsTrackList } from '../posts';
import { ProfileTabs } from './components/profile-tabs';
import { PROFILE_POSTS_MESSAGES, ProfilePosts, useProfilePosts } from './components/profile-posts';
import { shownName } from './profile-validation';
import styles from './profile-page.module.css';

export const USER_PROFILE_MESSAGES = {
  noUserId: 'No user ID provided',
  unknownUser: 'Unknown User',
  noBiography: 'No biography available',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  notFound: 'Profile not found',
  elsewhere: (server: string) => `On ${server}`,
  elsewhereHint: 'This person lives on another server. Listening to people of other servers from here is not possible yet.',
} as const;

/** The server of a person of another server (their login is their handle, `name@server`). */
export function serverOf(login: string): string | null {
  const at = login.indexOf('@');
  return at > 0 ? login.slice(at + 1) : null;
}

/**
 * Which user to show: the path's userId (/user/{userId}, /profile/{userId}); on
 * /another-user-rofile, which has no parameter, a `userId` (or `id`) in the query or in the
 * navigation state.
 */
function useRequestedUserId(): string {
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const state = location.state as { userId?: unknown } | null;
  const fromState = typeof state?.userId === 'string' ? state.userId : '';
  return (params.userId ?? search.get('userId') ?? search.get('id') ?? fromState).trim();
}

/** Another user's profile (spec §2 Other user's profile; routes /user/{id}, /profile/{id}, /another-user-rofile). */
export function UserProfilePage() {
  const userId = useRequestedUserId();
  const viewer = useViewer();

  useEffect(() => {
    if (!userId) console.error(USER_PROFILE_MESSAGES.noUserId);
  }, [userId]);

  if (!userId) {
    return <NoUserId />;
  }
  if (viewer && viewer.id === userId) {
    return <Navigate to="/profile" replace />;
  }
  return <UserProfile key={userId} userId={userId} />;
}

function NoUserId() {
  usePageTitle('Profile');
  return (
    <div className={styles.page}>
      <div className={styles.errorState}>
        <Alert tone="error">{USER_PROFILE_MESSAGES.noUserId}</Alert>
        <Link to="/search" className="btn btn-secondary">
          Find people
        </Link>
      </div>
    </div>
  );
}

/** How messages name this person: 'Ben (@ben)', or whichever of the two there is. */
function whoIs(user: Profile): string {
  const name = shownName(user.name);
  if (name && user.login) return `${name} (@${user.login})`;
  return name || (user.login ? `@${user.login}` : USER_PROFILE_MESSAGES.unknownUser);
}

function errorText(error: Error): string {
  if (error instanceof ApiError) return USER_PROFILE_MESSAGES.httpError(error.status);
  return error.message;
}

function UserProfile({ userId }: { userId: string }) {
  const profile = useQuery(profileQueries.detail(userId));
  // Counts have their own call so they can be fetched again after listening changes (spec §2).
  const stats = useQuery(profileQueries.stats(userId));
  const posts = useProfilePosts(userId);
  // A failed listen or block, in spec §8's words (shown in the page, not in a browser dialog).
  const [actionError, setActionError] = useState<string | null>(null);
  useEffect(() => {
    if (stats.isError) console.error('Failed to fetch user stats', stats.error);
  }, [stats.isError, stats.error]);
  const notFound = profile.isError && profile.error instanceof ApiError && profile.error.status === 404;
  usePageTitle(
    profile.data
      ? shownName(profile.data.name) || USER_PROFILE_MESSAGES.unknownUser
      : notFound
        ? USER_PROFILE_MESSAGES.notFound
        : 'Profile',
  );
  const { pathname } = useLocation();

  if (profile.isPending) return <PageSpinner label="Loading profile" />;
  if (profile.isError && !profile.data) {
    if (notFound) {
      return (
        <StatusPage
          code="404"
          title={USER_PROFILE_MESSAGES.notFound}
          text="No one has this profile: the account may have been deleted, or the link may be mistyped."
          lookedFor={pathname}
          search="people"
        />
      );
    }
    const retry = canRetry(profile.error);
    return (
      <div className={styles.page}>
        <div className={styles.errorState}>
          <Alert tone="error" title="Could not load this profile">
            <p>{errorText(profile.error)}</p>
            {retry ? <p>{RETRY_WORDS}</p> : null}
          </Alert>
          {retry ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void profile.refetch()}
              disabled={profile.isFetching}
            >
              Try Again
            </button>
          ) : (
            <Link to="/home" className="btn btn-primary">
              Go to home
            </Link>
          )}
        </div>
      </div>
    );
  }

  const user: Profile = profile.data;
  const name = shownName(user.name) || USER_PROFILE_MESSAGES.unknownUser;
  // The card the listened list keeps; '' is no picture (Avatar shows the default one).
  const card = { id: user.id, name: user.name, login: user.login, avatar_url: user.avatarUrl ?? '', tag_id: user.tagId };
  const who = whoIs(user);
  const server = serverOf(user.login);

  return (
    <div className={styles.page}>
      {actionError ? (
        <Alert tone="error" onDismiss={() => setActionError(null)} className={styles.notice}>
          {actionError}
        </Alert>
      ) : null}
      <ProfileHeader
        userId={user.id}
        name={name}
        login={user.login}
        avatarUrl={user.avatarUrl}
        // 'Add tag' invites the owner to choose one; on someone else's profile it would be a
        // control that does nothing, so no tag shows no badge.
        badge={roleForTagId(user.tagId) ? <RoleBadge tagId={user.tagId} /> : null}
        biography={
          user.biography ? <p>{user.biography}</p> : <p className={styles.muted}>{USER_PROFILE_MESSAGES.noBiography}</p>
        }
        // A failed stats call is silent: the profile's own counts (or zeros) stay (spec §8).
        stats={stats.data ?? user.stats}
        actions={
          <>
            {server ? (
              // A person of another server: listening to them from here is the next step.
              <span className={styles.elsewhere} title={USER_PROFILE_MESSAGES.elsewhereHint}>
                {USER_PROFILE_MESSAGES.elsewhere(server)}
              </span>
            ) : (
              <ListenButton user={card} onError={setActionError} />
            )}
            <BlockMenu userId={user.id} who={who} onError={setActionError} />
          </>
        }
      />
      <ProfileTabs
        userId={user.id}
        posts={
          <PostsTrackList posts={posts.posts}>
            <ProfilePosts state={posts} emptyText={PROFILE_POSTS_MESSAGES.otherEmptyText} renderPost={(post) => <PostCard post={post} />} />
          </PostsTrackList>
        }
      />
    </div>
  );
}
