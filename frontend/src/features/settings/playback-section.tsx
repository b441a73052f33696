import { usePlayerActions, usePlayerSelector } from '../player';
import pageStyles from './settings-page.module.css';
import styles from './playback-section.module.css';

/**
 * Settings → Playback (issue 32): whether tracks play evened out to one loudness, on this device
 * (the now-playing bar has the same switch beside its volume on wide screens).
 */
export function PlaybackSection() {
  const { toggleEvenLoudness } = usePlayerActions();
  const on = usePlayerSelector((state) => state.evenLoudness);
  return (
    <section className={pageStyles.section} aria-labelledby="playback-title">
      <header className={pageStyles.sectionHeader}>
        <h2 id="playback-title">Playback</h2>
        <p>How tracks sound on this device.</p>
      </header>
      <label className="choice">
        <input type="checkbox" checked={on} onChange={() => toggleEvenLoudness()} aria-describedby="even-loudness-hint" />
        <span>Even out loudness</span>
      </label>
      <p id="even-loudness-hint" className={styles.hint}>
        Quiet recordings and loud masters play at about the same volume. The tracks themselves are not changed.
      </p>
    </section>
  );
}
