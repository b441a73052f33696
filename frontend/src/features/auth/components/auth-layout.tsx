import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/logo';
import { usePageTitle } from '../../../lib/use-page-title';
import styles from './auth-layout.module.css';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  /** Tab title; defaults to the heading. */
  pageTitle?: string;
  /** A symbol above the heading (the verify page's envelope). */
  badge?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The sign-in, sign-up and verify screens: a brand panel beside a form card. */
export function AuthLayout({ title, subtitle, pageTitle, badge, children, footer }: AuthLayoutProps) {
  usePageTitle(pageTitle ?? title);
  return (
    <div className={styles.page}>
      <aside className={styles.brand}>
        <Link to="/home" className={styles.brandLogo} aria-label="SelfSound home">
          <Logo inverted />
        </Link>
        <div className={styles.pitch}>
          <p className={styles.headline}>A home for every voice in music.</p>
          <p className={styles.lead}>
            Artists, learners and listeners share their music, follow each other and react to
            every post.
          </p>
          <ul className={styles.kinds} aria-label="Post types">
            <li>Audio</li>
            <li>Media</li>
            <li>Lyrics</li>
            <li>MusicXML</li>
          </ul>
        </div>
        <div className={styles.wave} aria-hidden="true">
          {Array.from({ length: 28 }, (_, i) => (
            <span key={i} style={{ height: `${20 + Math.round(60 * Math.abs(Math.sin(i * 0.7)))}%` }} />
          ))}
        </div>
      </aside>
      <main className={styles.panel}>
        <div className={styles.card}>
          <Link to="/home" className={styles.mobileLogo} aria-label="SelfSound home">
            <Logo />
          </Link>
          {badge ? <div className={styles.badge}>{badge}</div> : null}
          <h1 className={styles.title}>{title}</h1>
          {subtitle ? <div className={styles.subtitle}>{subtitle}</div> : null}
          <div className={styles.content}>{children}</div>
          {footer ? <div className={styles.footer}>{footer}</div> : null}
        </div>
      </main>
    </div>
  );
}
