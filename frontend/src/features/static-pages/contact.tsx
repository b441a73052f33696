import type { ReactNode } from 'react';
import { MailIcon } from '../../components/icons';
import styles from './contact.module.css';

/** Where people write to us: support, advertising, privacy and copyright questions alike. */
export const SUPPORT_EMAIL = 'support@selfsound.app';

/** A mailto: address, with a subject line when the page knows what the message is about. */
export function mailto(subject?: string): string {
  return `mailto:${SUPPORT_EMAIL}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;
}

/** The address as a link inside running text. */
export function EmailLink({ subject }: { subject?: string }) {
  return <a href={mailto(subject)}>{SUPPORT_EMAIL}</a>;
}

interface ContactCardProps {
  title: string;
  /** The subject line the e-mail starts with. */
  subject?: string;
  children: ReactNode;
}

/** A highlighted card with the address as a large button: how to reach us. */
export function ContactCard({ title, subject, children }: ContactCardProps) {
  return (
    <section className={styles.contact} aria-labelledby="contact-title">
      <span className={styles.icon}>
        <MailIcon size={24} />
      </span>
      <div className={styles.text}>
        <h2 id="contact-title">{title}</h2>
        {children}
      </div>
      <a className={`btn btn-primary ${styles.button}`} href={mailto(subject)}>
        <MailIcon size={18} />
        {SUPPORT_EMAIL}
      </a>
    </section>
  );
}
