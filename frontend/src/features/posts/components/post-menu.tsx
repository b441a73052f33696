import { lazy, Suspense, useState } from 'react';
import { DotsIcon } from '../../../components/first-load-icons';
import { useViewer } from '../../../lib/session';
import type { PostMenuProps } from './post-options';
import menuStyles from '../../../components/menu.module.css';

const loadOptions = () => import('./post-options');
const PostOptions = lazy(async () => ({ default: (await loadOptions()).PostOptions }));

/**
 * A post's three-dot button (spec §2 Post card). The menu itself (Share, Report, Edit, Delete:
 * `post-options.tsx`) is not in the first load: it is fetched when the button is pointed at or
 * focused, and opens as it arrives when the button was pressed. Nothing shows until the session
 * check has answered, so the menu does not change under the pointer.
 */
export function PostMenu(props: PostMenuProps) {
  const viewer = useViewer();
  const [pressed, setPressed] = useState(false);
  if (viewer === undefined) return null;
  const button = (
    <div className={`${menuStyles.root} ${menuStyles.icon}`}>
      <button
        type="button"
        className={menuStyles.trigger}
        aria-label="Post options"
        aria-haspopup="menu"
        aria-expanded={false}
        onPointerEnter={() => void loadOptions()}
        onFocus={() => void loadOptions()}
        onClick={() => setPressed(true)}
      >
        <DotsIcon size={20} />
      </button>
    </div>
  );
  if (!pressed) return button;
  return (
    <Suspense fallback={button}>
      <PostOptions {...props} />
    </Suspense>
  );
}
