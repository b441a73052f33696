import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs } from '../../../components/tabs';
import { PlaylistsList } from '../../playlists';
import styles from './profile-tabs.module.css';

type ProfileTab = 'posts' | 'playlists';

const TABS = [
  { id: 'posts', label: 'Posts' },
  { id: 'playlists', label: 'Playlists' },
] as const;

/**
 * A profile's Posts and Playlists (issue 31), as tabs; the one open is in the address
 * (`?tab=playlists`), so a reload or a shared link keeps it.
 */
export function ProfileTabs({ userId, posts }: { userId: string; posts: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const tab: ProfileTab = params.get('tab') === 'playlists' ? 'playlists' : 'posts';
  return (
    <div className={styles.sections}>
      <Tabs
        tabs={TABS}
        selected={tab}
        onSelect={(next) => setParams(next === 'posts' ? {} : { tab: next }, { replace: true })}
        label="Profile sections"
        tabId={(id) => `profile-tab-${id}`}
        panelId={(id) => `profile-panel-${id}`}
      />
      <div role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`}>
        {tab === 'posts' ? posts : <PlaylistsList userId={userId} />}
      </div>
    </div>
  );
}
