import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { BinIcon } from '../../components/first-load-icons';
import { ArrowRightIcon, LogOutIcon, SparkIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { StarterPlanCard } from '../../components/starter-plan-card';
import { usePageTitle } from '../../lib/use-page-title';
import { useDeleteAccount, useLogOut } from '../auth';
import { AdminSection } from './admin-section';
import { AppearanceSection } from './appearance-section';
import { BlockedUsersSection } from './blocked-users-section';
import { DataExportSection } from './data-export-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { PlaybackSection } from './playback-section';
import { PushSection } from './push-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';
import styles from './settings-page.module.css';

export const DELETE_ACCOUNT_CONFIRMATION =
  'Are you sure you want to delete your account? This action cannot be undone.';

function SubscriptionSection() {
  return (
    <section className={styles.section} aria-labelledby="subscription-title">
      <header className={styles.sectionHeader}>
        <h2 id="subscription-title">Subscription</h2>
        <p>Your plan and what it includes.</p>
      </header>
      <div className={styles.plans}>
        <StarterPlanCard current />
        <Link to="/premium" className={`${styles.plan} ${styles.premium}`}>
          <span className={styles.premiumIcon}>
            <SparkIcon size={22} />
          </span>
          <h3>Premium</h3>
          <p className={styles.premiumText}>
            More for creators is on the way. See what Premium will offer.
          </p>
          <span className={styles.premiumLink}>
            Learn about Premium <ArrowRightIcon size={16} />
          </span>
        </Link>
      </div>
    </section>
  );
}

/**
 * Settings (spec §2): subscription, appearance (issue 19), playback (issue 32), blocked users, password and sessions
 * (issue 7), two-factor sign-in, passkeys, notifications on your devices and your data (issue 36), log out and the
 * danger zone.
 */
export function SettingsPage() {
  usePageTitle('Settings');
  const navigate = useNavigate();
  const logOut = useLogOut();
  const deleteAccount = useDeleteAccount();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const busy = logOut.isPending || deleteAccount.isPending;

  // Both go to /sign-in whatever the server answered (spec §4); after deleting, the sign-in
  // page says what happened (useDeleteAccount leaves it the words).
  const onLogOut = () => logOut.mutate(undefined, { onSettled: () => void navigate('/sign-in') });
  const onDelete = () => deleteAccount.mutate(undefined, { onSettled: () => void navigate('/sign-in') });

  return (
    <div className={styles.page}>
      <header className={styles.pageHeader}>
        <h1>Settings</h1>
      </header>

      <SubscriptionSection />

      <AppearanceSection />

      <PlaybackSection />

      <BlockedUsersSection />

      <PasswordSection />

      <TwoFactorSection />

      <PasskeysSection />

      <PushSection />

      <SessionsSection />

      <DataExportSection />

      <AdminSection />

      <section className={styles.section} aria-labelledby="account-title">
        <header className={styles.sectionHeader}>
          <h2 id="account-title">Account</h2>
          <p>Sign out of SelfSound on this device.</p>
        </header>
        <div className={styles.row}>
          <button type="button" className="btn btn-secondary" onClick={onLogOut} disabled={busy}>
            {logOut.isPending ? <Spinner size="sm" label="" /> : <LogOutIcon size={18} />}
            {logOut.isPending ? 'Logging out...' : 'Log out'}
          </button>
        </div>
      </section>

      <section className={`${styles.section} ${styles.danger}`} aria-labelledby="danger-title">
        <header className={styles.sectionHeader}>
          <h2 id="danger-title">Danger zone</h2>
          <p>Deleting your account is permanent and cannot be undone.</p>
        </header>
        <div className={styles.row}>
          <button
            type="button"
            className="btn btn-danger-outline"
            onClick={() => setConfirmingDelete(true)}
            disabled={busy}
            aria-haspopup="dialog"
          >
            {deleteAccount.isPending ? <Spinner size="sm" label="" /> : <BinIcon size={18} />}
            {deleteAccount.isPending ? 'Deleting...' : 'Delete account'}
          </button>
        </div>
      </section>

      <ConfirmDialog
        open={confirmingDelete}
        title="Delete account"
        message={DELETE_ACCOUNT_CONFIRMATION}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={deleteAccount.isPending}
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={onDelete}
      />
    </div>
  );
}
