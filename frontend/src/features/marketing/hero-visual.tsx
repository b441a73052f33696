import { CommentIcon, HeartIcon, PlayMarkIcon, ScoreIcon } from '../../components/first-load-icons';
import { ROLE_TAGS, RoleBadge } from '../../components/role-badge';
import styles from './hero-visual.module.css';

const [LISTENER, MUSICIAN, LEARNER] = ROLE_TAGS;

/** How many bars the pictured waveform has; CSS gives them their heights. */
const BARS = 36;

/**
 * A picture of the app for the hero: an audio post, a comment with a mention, a score chip.
 * Drawn with markup so it stays sharp and light; hidden from screen readers (the copy says it).
 */
export function HeroVisual() {
  return (
    <div className={styles.visual} aria-hidden="true">
      <div className={`${styles.card} ${styles.post}`}>
        <div className={styles.head}>
          <span className={`${styles.avatar} ${styles.avatarA}`}>MS</span>
          <span className={styles.who}>
            <strong>Mira Sol</strong>
            <span>@mirasol · 2h</span>
          </span>
          <RoleBadge tagId={MUSICIAN.id} />
        </div>
        <p className={styles.title}>Late night demo (acoustic)</p>
        <div className={styles.player}>
          <span className={styles.play}>
            <PlayMarkIcon size={18} />
          </span>
          <span className={styles.wave}>
            {Array.from({ length: BARS }, (_, i) => (
              <span key={i} />
            ))}
          </span>
          <span className={styles.time}>1:12 / 3:05</span>
        </div>
        <div className={styles.actions}>
          <span className={styles.liked}>
            <HeartIcon size={18} /> 248
          </span>
          <span>
            <CommentIcon size={18} /> 31
          </span>
        </div>
      </div>

      <div className={`${styles.card} ${styles.comment}`}>
        <div className={styles.head}>
          <span className={`${styles.avatar} ${styles.avatarB}`}>JT</span>
          <span className={styles.who}>
            <strong>Jonah T.</strong>
            <span>@jonah</span>
          </span>
          <RoleBadge tagId={LEARNER.id} />
        </div>
        <p className={styles.text}>
          <span className={styles.mention}>@mirasol</span> that chord change in the chorus! Could you post the
          score?
        </p>
      </div>

      <div className={`${styles.chip} ${styles.chipScore}`}>
        <ScoreIcon size={18} /> MusicXML
      </div>
      <div className={`${styles.chip} ${styles.chipListener}`}>
        <RoleBadge tagId={LISTENER.id} /> +1 listener
      </div>
    </div>
  );
}
