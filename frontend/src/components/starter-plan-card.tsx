import { useId } from 'react';
import { CheckIcon } from './icons';
import styles from './starter-plan-card.module.css';

export const STARTER_PERKS = ['4 types of post', 'Tag role', 'Basic functionality'] as const;

/**
 * The free 'Starter' plan (spec §1, §9): 0 USD per month, free forever, three perks. Settings and
 * the premium pages show it; `current` marks it as the plan the person is on.
 */
export function StarterPlanCard({ current = false, className }: { current?: boolean; className?: string }) {
  const titleId = useId();
  return (
    <article className={[styles.plan, className].filter(Boolean).join(' ')} aria-labelledby={titleId}>
      <div className={styles.planTop}>
        <h3 id={titleId}>Starter</h3>
        {current ? <span className={styles.current}>Current plan</span> : null}
      </div>
      <p className={styles.price}>
        <span className={styles.amount}>0 USD</span>
        <span className={styles.period}>per month</span>
      </p>
      <p className={styles.forever}>Free forever</p>
      <ul className={styles.perks}>
        {STARTER_PERKS.map((perk) => (
          <li key={perk}>
            <CheckIcon size={16} />
            {perk}
          </li>
        ))}
      </ul>
    </article>
  );
}
