import type { MouseEvent, ReactNode } from 'react';
import { Card, StaticPage } from './static-page';
import styles from './legal-page.module.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * Opens a section without touching the address: a #fragment would become a history entry of
 * its own, and Back would then stay on the page instead of going back.
 */
function jumpTo(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'start' });
  target.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

/** When the terms and the privacy policy last changed. */
const UPDATED = 'Last updated: November 2026';

interface LegalPageProps {
  title: string;
  lead: string;
  sections: LegalSection[];
  /** A last card after the numbered topics (changes, questions). */
  closing: { title: string; body: ReactNode };
}

/** Terms and privacy: a list of contents, one numbered card per topic, then a closing card. */
export function LegalPage({ title, lead, sections, closing }: LegalPageProps) {
  return (
    <StaticPage eyebrow="Legal" title={title} lead={lead}>
      <nav className={styles.contents} aria-label="Contents">
        <p className={`eyebrow ${styles.contentsTitle}`}>Contents</p>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} onClick={(event) => jumpTo(event, section.id)}>
                {section.title}
              </a>
            </li>
          ))}
        </ol>
        <p className={styles.updated}>{UPDATED}</p>
      </nav>
      {sections.map((section, index) => (
        <Card
          key={section.id}
          id={section.id}
          headingClassName={styles.heading}
          title={
            <>
              <span className={styles.number} aria-hidden="true">
                {index + 1}
              </span>
              {section.title}
            </>
          }
        >
          {section.body}
        </Card>
      ))}
      <Card title={closing.title} id="closing">
        {closing.body}
      </Card>
    </StaticPage>
  );
}
