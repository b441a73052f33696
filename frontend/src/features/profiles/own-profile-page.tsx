import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert';
import { PencilIcon } from '../../components/first-load-icons';
import { RoleBadge, roleForTagId } from '../../components/role-badge';
import { PageSpinner } from '../../components/spinner';
import { usePageTitle } from '../../lib/use-page-title';
import { useViewer } from '../../lib/session';
import { PROFILE_ERRORS, profileQueries } from './api';
import { readProfileDraft } from './profile-draft';
import { EditProfileModal } from './components/edit-profile-modal';
import { OwnPlays } from './components/own-plays';
import { ProfileTabs } from './components/profile-tabs';
import { ProfileHeader } from './components/profile-header';
import { PostCard, PostsTrackList } from '../posts';
import { PROFILE_POSTS_MESSAGES, ProfilePosts, useProfilePosts } from './components/profile-posts';
import { shownName } from './profile-validation';
import styles from './profile-page.module.css';

/** The signed-in user's own profile (spec §2 Own profile). The route guard has checked the session. */
export function OwnProfilePage() {
  usePageTitle('Profile');
  const viewer = useViewer();
  const profile = useQuery(profileQueries.own(viewer?.id));
  const posts = useProfilePosts(viewer?.id);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  // Back after signing in again with an edit left unsaved: the dialog opens where it was.
  const [draftChecked, setDraftChecked] = useState(false);
  if (!draftChecked && viewer && profile.data) {
    setDraftChecked(true);
    if (readProfileDraft(viewer.id)) setEditing(true);
  }

  // A failed re-fetch keeps showing the profile already on screen.
  if (profile.isPending) return <PageSpinner label="Loading profile" />;
  if (profile.isError && !profile.data) {
    return (
      <div className={styles.page}>
        <div className={styles.errorState}>
          <Alert tone="error" title="Could not load your profile">
            {profile.error.message}
          </Alert>
          <button type="button" className="btn btn-primary" onClick={() => void profile.refetch()}>
            Try Again
          </button>
        </div>
      </div>
    );
  }

  const me = profile.data;
  const openEditor = () => {
    setNotice(null);
    setEditing(true);
  };

  return (
    <div className={styles.page}>
      {notice ? (
        <Alert tone="warning" onDismiss={() => setNotice(null)} className={styles.notice}>
          {notice}
        </Alert>
      ) : null}
      <ProfileHeader
        userId={me.id}
        name={shownName(me.name)}
        login={me.login}
        avatarUrl={me.avatarUrl}
        badge={
          roleForTagId(me.tagId) ? (
            <RoleBadge tagId={me.tagId} />
          ) : (
            <button type="button" className={styles.addTag} onClick={openEditor} title="Choose a tag in Edit profile">
              <RoleBadge tagId={null} />
            </button>
          )
        }
        biography={
          me.biography ? <p>{me.biography}</p> : <p className={styles.muted}>Add a biography so people know your music.</p>
        }
        stats={me.stats}
        actions={
          <button type="button" className="btn btn-secondary" onClick={openEditor} aria-haspopup="dialog">
            <PencilIcon size={18} />
            Edit profile
          </button>
        }
      />
      {viewer ? <OwnPlays viewerId={viewer.id} /> : null}
      <ProfileTabs
        userId={me.id}
        posts={
          <PostsTrackList posts={posts.posts}>
            <ProfilePosts state={posts} emptyText={PROFILE_POSTS_MESSAGES.ownEmptyText} renderPost={(post) => <PostCard post={post} />} />
          </PostsTrackList>
        }
      />
      <EditProfileModal
        open={editing}
        profile={me}
        viewerId={viewer?.id}
        onClose={() => setEditing(false)}
        onSaved={(refetched) => setNotice(refetched ? null : PROFILE_ERRORS.refetchFailed)}
      />
    </div>
  );
}
