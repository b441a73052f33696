import type { ReactNode } from 'react';
import { BackButton } from '../../components/back-button';
import { usePageTitle } from '../../lib/use-page-title';
import styles from './static-page.module.css';

interface StaticPageProps {
  /** The heading, and the browser tab's title. */
  title: string;
  /** A short word above the heading: where this page belongs ('Legal', 'Help'). */
  eyebrow: string;
  /** One or two sentences under the heading. */
  lead?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of every static page (spec §2 "Static pages"): Back, the heading, then the page's
 * cards. The router's ScrollToTop starts each one at the top.
 */
export function StaticPage({ title, eyebrow, lead, children }: StaticPageProps) {
  usePageTitle(title);
  return (
    <article className={styles.page} aria-labelledby="static-page-title">
      <BackButton />
      <div className={styles.header}>
        <p className="eyebrow">{eyebrow}</p>
        <h1 id="static-page-title">{title}</h1>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
      </div>
      {children}
    </article>
  );
}

interface CardProps {
  /** Without a title the card is a plain block of text. */
  title?: ReactNode;
  /** Names the card (a region, reachable by #id, its heading focusable). */
  id?: string;
  headingClassName?: string;
  children: ReactNode;
}

/** One block of a static page: a white card with an optional heading and readable text. */
export function Card({ title, id, headingClassName, children }: CardProps) {
  const headingId = title && id ? `${id}-title` : undefined;
  return (
    <section className={`card ${styles.block}`} id={id} aria-labelledby={headingId}>
      {title ? (
        <h2 id={headingId} className={headingClassName} tabIndex={headingId ? -1 : undefined}>
          {title}
        </h2>
      ) : null}
      {children}
    </section>
  );
}
