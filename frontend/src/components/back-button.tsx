import { useLocation, useNavigate } from 'react-router';
import { ArrowLeftIcon } from './icons';
import styles from './back-button.module.css';

/**
 * 'Back' (the post page, the static pages of spec §2): one step back in the browser history when
 * the visitor came from a page of ours, else /home. The router's first entry has the key
 * 'default', so a page opened from a bookmark or another site never sends anyone away.
 */
export function BackButton({ fallback = '/home' }: { fallback?: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const goBack = () => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate(fallback);
  };
  return (
    <button type="button" className={styles.back} onClick={goBack}>
      <ArrowLeftIcon size={20} />
      Back
    </button>
  );
}
