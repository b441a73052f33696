import { useState } from 'react';
import { chooseTheme, storedTheme, THEME_CHOICES, type ThemeChoice } from '../../lib/theme';
import pageStyles from './settings-page.module.css';
import styles from './appearance-section.module.css';

/** Settings → Appearance (issue 19): light, dark, or the device's own setting. */
export function AppearanceSection() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  const choose = (next: ThemeChoice) => {
    setChoice(next);
    chooseTheme(next);
  };
  return (
    <section className={pageStyles.section} aria-labelledby="appearance-title">
      <header className={pageStyles.sectionHeader}>
        <h2 id="appearance-title">Appearance</h2>
        <p>Light or dark, on this device.</p>
      </header>
      <fieldset className={styles.choices}>
        <legend className="visually-hidden">Theme</legend>
        {THEME_CHOICES.map(({ value, label }) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="theme"
              value={value}
              checked={choice === value}
              onChange={() => choose(value)}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
