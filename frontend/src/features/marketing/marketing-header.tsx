import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { CloseIcon } from '../../components/first-load-icons';
import { MenuIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import styles from './marketing-header.module.css';

/** The header's links, in the spec's order (§2 "Marketing page"). */
export const HEADER_LINKS = [
  { to: '/premium', label: 'Premium' },
  { to: '/support', label: 'Support' },
  { to: '/home', label: 'Guest mode' },
] as const;

const MENU_ID = 'marketing-menu';

/**
 * Logo and links. Below 900px the links fold into a menu under a button (spec §4 "Mobile menu":
 * open or closed); following a link or pressing Escape closes it.
 */
export function MarketingHeader() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const closeOnLink = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('a')) setOpen(false);
  };

  return (
    <header className={styles.header} data-open={open || undefined}>
      <div className={styles.bar}>
        <span className={styles.logo}>
          <Logo />
        </span>
        <button
          ref={toggle}
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={MENU_ID}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? <CloseIcon size={24} /> : <MenuIcon size={24} />}
        </button>
        <nav id={MENU_ID} className={styles.nav} aria-label="Main" onClick={closeOnLink}>
          <ul className={styles.links}>
            {HEADER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={styles.link}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className={styles.auth}>
            <Link to="/sign-in" className={`btn btn-secondary ${styles.logIn}`}>
              Log in
            </Link>
            <Link to="/sign-up" className="btn btn-primary">
              Sign up
            </Link>
          </div>
        </nav>
      </div>
    </header>
  );
}
