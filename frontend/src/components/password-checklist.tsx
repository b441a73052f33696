import { CheckIcon, CircleIcon } from './icons';
import { STRENGTH_LABELS, passwordChecklist, passwordStrength } from '../lib/password-rules';
import styles from './password-checklist.module.css';

/** The live checklist and strength meter under a new password: sign-up, reset, Settings (spec §4, §5). */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const items = passwordChecklist(password);
  const strength = passwordStrength(password);
  const filled = { invalid: 0, weak: 1, ok: 2, strong: 3 }[strength];

  return (
    <div className={styles.box} id={id}>
      {password !== '' ? (
        <div className={`${styles.meter} ${styles[strength]}`} data-strength={strength}>
          <div className={styles.bars} aria-hidden="true">
            {[1, 2, 3].map((n) => (
              <span key={n} className={n <= filled ? styles.on : undefined} />
            ))}
          </div>
          {strength !== 'invalid' ? (
            <p className={styles.label} aria-live="polite">
              {STRENGTH_LABELS[strength]}
            </p>
          ) : null}
        </div>
      ) : null}
      <ul className={styles.list} aria-label="Password requirements">
        {items.map((item) => (
          <li key={item.id} className={item.met ? styles.met : undefined} data-met={item.met}>
            {item.met ? <CheckIcon size={16} /> : <CircleIcon size={16} />}
            <span>{item.label}</span>
            <span className="visually-hidden">{item.met ? '(done)' : '(missing)'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
