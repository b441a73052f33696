import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { CommentIcon, HeartIcon, LyricsIcon, MusicIcon, ScoreIcon } from '../../components/first-load-icons';
import { ArrowRightIcon, AtIcon, HeadphonesIcon, ImageIcon, ShieldIcon, UsersIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { ROLE_TAGS, RoleBadge, type RoleName } from '../../components/role-badge';
import { usePageTitle } from '../../lib/use-page-title';
import { HeroVisual } from './hero-visual';
import { MarketingHeader } from './marketing-header';
import styles from './marketing-page.module.css';

export const SIGN_UP_FOR_FREE = 'Sign up for free';

/** The footer's links (spec §2 "Marketing page"), grouped for reading. */
export const FOOTER_GROUPS = [
  {
    title: 'Company',
    links: [
      { to: '/about-us', label: 'About us' },
      { to: '/advertisers', label: 'For Advertisers' },
    ],
  },
  {
    title: 'Help',
    links: [
      { to: '/support', label: 'Support' },
      { to: '/terms', label: 'Terms of Use' },
      { to: '/privacy', label: 'Privacy Policy' },
    ],
  },
  {
    title: 'Community',
    links: [
      { to: '/socials/discord', label: 'Discord' },
      { to: '/socials/instagram', label: 'Instagram' },
    ],
  },
] as const;

interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

const POST_TYPES: Feature[] = [
  {
    icon: <MusicIcon size={24} />,
    title: 'Audio',
    text: 'Tracks, demos and practice takes, up to ten in a post. Each plays with its waveform and keeps playing while you browse.',
  },
  {
    icon: <ImageIcon size={24} />,
    title: 'Media',
    text: 'Images and videos from the studio, the stage or your bedroom, up to five in a post, opened full size with a tap.',
  },
  {
    icon: <LyricsIcon size={24} />,
    title: 'Lyrics',
    text: 'Write a song in parts (verse, chorus, bridge) with its title and artist, and let people read every word.',
  },
  {
    icon: <ScoreIcon size={24} />,
    title: 'Sheet music',
    text: 'Share scores as MusicXML files. SelfSound draws the notation right in the post, and anyone can download it to play.',
  },
];

const REACTIONS: Feature[] = [
  { icon: <HeartIcon size={20} />, title: 'Likes', text: 'Show some love with a single tap.' },
  { icon: <CommentIcon size={20} />, title: 'Comments', text: 'Give feedback, ask how it was played, or just say thanks.' },
  { icon: <AtIcon size={20} />, title: '@mentions', text: 'Type @ and a name to bring someone in. They get a notification.' },
];

const ROLES: Record<RoleName, string> = {
  Listener: 'You are here for the music and for the people who make it.',
  Musician: 'You write, play, sing or produce, and you want to be heard.',
  Learner: 'You are practising and studying, and sharing your progress.',
};

const REASONS: Feature[] = [
  {
    icon: <MusicIcon size={22} />,
    title: 'Built for music, not for everything',
    text: 'Every post type exists for a reason: audio with a proper player, lyrics in parts, real sheet music.',
  },
  {
    icon: <HeadphonesIcon size={22} />,
    title: 'A feed of people you choose',
    text: 'Listen to someone and their posts arrive in your Listened to feed. Everything else waits in For you.',
  },
  {
    icon: <UsersIcon size={22} />,
    title: 'Every voice counts',
    text: 'A first cover gets the same stage as a finished album. Listeners, musicians and learners share one home.',
  },
  {
    icon: <ShieldIcon size={22} />,
    title: 'Free, and honest with your data',
    text: 'The Starter plan is free forever. No advertising trackers, and we never sell your data.',
  },
];

/** A grid of cards, each a symbol, a title and a sentence (post types, reasons). */
function FeatureGrid({ items, tone }: { items: Feature[]; tone: 'light' | 'dark' }) {
  return (
    <ul className={`${styles.features} ${tone === 'dark' ? styles.dark : ''}`}>
      {items.map((item) => (
        <li key={item.title} className={styles.feature}>
          <span className={styles.featureIcon}>{item.icon}</span>
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

function SignUpButton({ inverted = false }: { inverted?: boolean }) {
  return (
    <Link to="/sign-up" className={`btn btn-primary ${styles.cta} ${inverted ? styles.ctaInverted : ''}`}>
      {SIGN_UP_FOR_FREE}
      <ArrowRightIcon size={18} />
    </Link>
  );
}

/**
 * /about-selfsound (spec §2 "Marketing page"): header, hero, benefits, why choose, footer, and
 * an outlet for child routes. Public, outside the app's layout, loaded on its own.
 */
export function MarketingPage() {
  usePageTitle('A home for every voice in music');
  return (
    <div className={styles.page}>
      <MarketingHeader />
      <main>
        <section className={styles.hero} aria-labelledby="hero-title">
          <div className={styles.heroInner}>
            <div className={styles.heroText}>
              <p className={styles.kicker}>For musicians, learners and listeners</p>
              <h1 id="hero-title" className={styles.heroTitle}>
                A home for <span className={styles.highlight}>every voice</span> in music
              </h1>
              <p className={styles.heroLead}>
                Share your tracks, videos, lyrics and sheet music. Listen to the people who inspire
                you, react to what moves you, and let your own voice be heard.
              </p>
              <div className={styles.heroActions}>
                <SignUpButton />
                <Link to="/home" className={`btn btn-secondary ${styles.secondary}`}>
                  Browse as a guest
                </Link>
              </div>
              <p className={styles.heroNote}>Free forever on the Starter plan. No card needed.</p>
            </div>
            <HeroVisual />
          </div>
        </section>

        <section className={styles.benefits} aria-labelledby="benefits-title">
          <div className={styles.inner}>
            <div className={styles.sectionHead}>
              <p className="eyebrow">Four ways to share</p>
              <h2 id="benefits-title">Made for the way music is shared</h2>
              <p>Each kind of post is built for what it carries, so your work looks and sounds the way you meant it.</p>
            </div>
            <FeatureGrid items={POST_TYPES} tone="light" />

            <div className={styles.pair}>
              <article className={styles.panel} aria-labelledby="reactions-title">
                <h3 id="reactions-title">React to what moves you</h3>
                <p className={styles.panelLead}>
                  Every post can be liked and commented on, and a conversation is one @ away.
                </p>
                <ul className={styles.reactions}>
                  {REACTIONS.map((reaction) => (
                    <li key={reaction.title}>
                      <span className={styles.reactionIcon}>{reaction.icon}</span>
                      <span className={styles.reactionText}>
                        <strong>{reaction.title}</strong>
                        <span>{reaction.text}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              </article>
              <article className={styles.panel} aria-labelledby="roles-title">
                <h3 id="roles-title">Say who you are</h3>
                <p className={styles.panelLead}>
                  Pick a role tag for your profile. It shows beside your name on every post, so
                  people know where you are coming from.
                </p>
                <ul className={styles.roles}>
                  {ROLE_TAGS.map((tag) => (
                    <li key={tag.id}>
                      <RoleBadge tagId={tag.id} className={styles.roleBadge} />
                      <span>{ROLES[tag.name]}</span>
                    </li>
                  ))}
                </ul>
              </article>
            </div>
          </div>
        </section>

        <section className={styles.why} aria-labelledby="why-title">
          <div className={styles.inner}>
            <div className={`${styles.sectionHead} ${styles.whyHead}`}>
              <p className="eyebrow">What makes us different</p>
              <h2 id="why-title">Why choose SelfSound</h2>
              <p>A small team building the place we always wanted for our own music.</p>
            </div>
            <FeatureGrid items={REASONS} tone="dark" />
            <div className={styles.ctaBand}>
              <p className={styles.ctaText}>Your music deserves to be heard.</p>
              <SignUpButton inverted />
            </div>
          </div>
        </section>

        {/* Spec §2: the page has an area for child routes (none are defined yet). */}
        <Outlet />
      </main>

      <footer className={styles.footer}>
        <div className={`${styles.inner} ${styles.footerInner}`}>
          <div className={styles.footerBrand}>
            <Logo inverted />
            <p>A home for every voice in music.</p>
          </div>
          <nav className={styles.footerNav} aria-label="Footer">
            {FOOTER_GROUPS.map((group) => (
              <div key={group.title} className={styles.footerGroup}>
                <p className={`eyebrow ${styles.footerTitle}`}>{group.title}</p>
                <ul>
                  {group.links.map((link) => (
                    <li key={link.to}>
                      <Link to={link.to}>{link.label}</Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        <div className={styles.inner}>
          <p className={styles.copyright}>© {new Date().getFullYear()} SelfSound</p>
        </div>
      </footer>
    </div>
  );
}
