import { Link } from 'react-router';
import { EmailLink } from './contact';
import { LegalPage, type LegalSection } from './legal-page';

/**
 * The six topics of spec §2 "Static pages", true to what the server keeps (the tables in
 * migrations/) and what the app stores in the browser (lib/token-storage).
 */
export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    id: 'data',
    title: 'What we collect',
    body: (
      <>
        <p>We keep only what SelfSound needs to work:</p>
        <ul>
          <li>
            <strong>Your account:</strong> your e-mail address, name and login, and your password
            as a one-way hash (never the password itself). If you sign in with Google, we keep the
            identifier Google gives your account, not your Google password.
          </li>
          <li>
            <strong>Your profile:</strong> your biography, your avatar and your role tag.
          </li>
          <li>
            <strong>What you share:</strong> your posts and the files you upload (audio, images,
            videos, MusicXML scores and lyrics), your likes and your comments, including the people
            you @mention.
          </li>
          <li>
            <strong>Your connections:</strong> who you listen to, who listens to you, and who you
            have blocked.
          </li>
          <li>
            <strong>Notifications:</strong> the ones we create for you, such as a new like,
            comment, mention or listener, and whether you have read them.
          </li>
          <li>
            <strong>Reports:</strong> the reports you send about posts, and what we decided.
          </li>
          <li>
            <strong>Sessions:</strong> for each device you sign in on, when the session started and
            ends, the browser and device it came from (its user agent) and when it was last seen.
            You can see this list in Settings.
          </li>
          <li>
            <strong>Client addresses:</strong> the IP address a request comes from, used to limit
            how often anyone can sign up, sign in or ask for e-mails, so that nobody can guess
            passwords or flood inboxes.
          </li>
        </ul>
        <p>
          We do not collect your location, your contacts or anything from other apps, and we do
          not build a profile of you for advertising.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <>
        <p>
          SelfSound uses one cookie, <code>access_token</code>. It holds your session, so that you
          stay signed in, and it is set only when you sign in. It expires after 24 hours and is
          cleared when you log out. If you browse as a guest, we set no cookie at all.
        </p>
        <p>
          The app also keeps the same session token in your browser&apos;s storage, and remembers
          small things there for your convenience, such as the page you last opened in the
          navigation bar, or a profile edit you have not saved yet.
        </p>
        <p>
          There are no advertising cookies, no analytics cookies and no third-party trackers on
          SelfSound.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'Who sees and receives your data',
    body: (
      <>
        <p>
          What you post is public. Your name, login, avatar, biography, role tag, posts, comments
          and listener counts can be seen by anyone, including guests. Your e-mail address is
          never shown to other people.
        </p>
        <p>
          <strong>We do not sell your personal data</strong>, and we do not share it with
          advertisers. We share it only:
        </p>
        <ul>
          <li>
            with the providers that run SelfSound for us, such as hosting, file storage and e-mail
            delivery, who may use it only to provide that service to us;
          </li>
          <li>with Google, if you choose to sign in with Google;</li>
          <li>when the law requires it, or to protect someone from serious harm.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <>
        <p>
          Passwords are stored only as Argon2id hashes. Links in our e-mails work once and expire
          (a password-reset link after one hour), and we keep only a fingerprint of each link, not
          the link itself. Repeated sign-in attempts are slowed down and then refused, and the
          app refuses to run code from anywhere but SelfSound itself.
        </p>
        <p>
          You can see every device signed in to your account in Settings and sign them out. No
          service is perfectly secure; if something ever happens that puts your data at risk, we
          will tell you.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <>
        <p>
          We keep your account and what you share for as long as your account exists. A post you
          delete is gone with its files, likes and comments.
        </p>
        <p>
          Deleting your account in Settings removes your profile, your posts and the files you
          uploaded, together with your likes, comments, listening, blocks and sessions. It cannot
          be undone.
        </p>
        <p>
          Some records are short-lived by design: sessions end after 24 hours or when you log out,
          e-mail links expire, and the counters kept for client addresses only cover a short
          window.
        </p>
      </>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          You can see and correct most of your data yourself: edit your profile, delete posts, and
          delete your account in Settings. You can also ask us for a copy of what we keep about you,
          to correct or delete it, or to stop using it in a particular way.
        </p>
        <p>
          Write to <EmailLink subject="Privacy request" /> from the e-mail address of your account,
          so we know the request is yours. We answer within a month. Depending on where you live,
          you may also complain to your data protection authority.
        </p>
        <p>
          See also our <Link to="/terms">Terms of Use</Link>.
        </p>
      </>
    ),
  },
];

/** /privacy: the Privacy Policy (spec §2 "Static pages"). */
export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      lead="What SelfSound keeps about you, why, and what you can do about it."
      sections={PRIVACY_SECTIONS}
      closing={{
        title: 'Changes to this policy',
        body: (
          <p>
            If we change what we collect or how we use it, we will update this page and, for
            changes that matter, tell you in the app before they take effect.
          </p>
        ),
      }}
    />
  );
}
