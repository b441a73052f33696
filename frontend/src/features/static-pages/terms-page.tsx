import { Link } from 'react-router';
import { EmailLink } from './contact';
import { LegalPage, type LegalSection } from './legal-page';

/** Spec §9: the youngest age at which someone may have an account. */
export const MINIMUM_AGE = 13;

/** The ten topics of spec §2 "Static pages", in its order. */
export const TERMS_SECTIONS: LegalSection[] = [
  {
    id: 'account',
    title: 'Your account',
    body: (
      <>
        <p>
          You can browse SelfSound as a guest. To post, like, comment, listen to people and get
          notifications you need an account, made with your e-mail address or your Google account.
        </p>
        <p>
          Use an e-mail address you can read: we send it a link to confirm the account and, when
          you ask, a link to set a new password. Keep your password to yourself. You are
          responsible for what happens under your account, so if you think someone else has got
          in, change your password in Settings, sign out your other sessions there, and tell us.
        </p>
        <p>One person, one account. Do not create accounts for someone else without their permission.</p>
      </>
    ),
  },
  {
    id: 'age',
    title: 'Minimum age',
    body: (
      <>
        <p>
          You must be at least {MINIMUM_AGE} years old to create an account. If the law where you
          live sets a higher age for using a service like this on your own, you need the
          permission of a parent or guardian until you reach it.
        </p>
        <p>
          If we learn that an account belongs to someone younger than {MINIMUM_AGE}, we will close
          it and delete what it posted.
        </p>
      </>
    ),
  },
  {
    id: 'ownership',
    title: 'Your content stays yours',
    body: (
      <>
        <p>
          You keep every right you have in what you post: your recordings, images, videos, lyrics
          and scores. SelfSound does not become the owner of any of it.
        </p>
        <p>
          To run the service we need your permission to handle it. By posting, you give SelfSound a
          worldwide, non-exclusive, royalty-free licence to store your content, make the copies
          the app needs (for example a smaller image, or the waveform of a track), and show it to
          people on SelfSound. We use this licence only to run SelfSound. It ends when you delete
          the post or your account.
        </p>
        <p>
          Posts, comments and your profile are public: anyone can see them, including guests
          without an account. Do not post anything you want to keep private.
        </p>
      </>
    ),
  },
  {
    id: 'content',
    title: 'What you may post',
    body: (
      <>
        <p>
          SelfSound is for music and everything around it: your songs and covers, practice takes,
          lyrics, sheet music, photos and videos from rehearsals and stages, and honest talk about
          all of it. Only post what you made, or what you have the right to share.
        </p>
        <p>Do not post:</p>
        <ul>
          <li>recordings, videos, lyrics or scores that belong to someone else without their permission;</li>
          <li>sexually explicit material, and never anything that sexualises minors;</li>
          <li>graphic violence, or content that promotes terrorism, self-harm or hatred;</li>
          <li>someone else&apos;s personal information without their consent;</li>
          <li>malware, or files that are not what they claim to be;</li>
          <li>spam, scams, or advertising disguised as a post.</li>
        </ul>
        <p>
          A cover or a transcription of someone else&apos;s song may need the permission of whoever
          owns it. Getting that permission is up to you.
        </p>
      </>
    ),
  },
  {
    id: 'behaviour',
    title: 'How we treat each other',
    body: (
      <>
        <p>
          Be kind, or at least be fair. Criticism of music is welcome; attacks on people are not.
          In particular, do not:
        </p>
        <ul>
          <li>harass, threaten or bully anyone, in comments, mentions or anywhere else;</li>
          <li>attack people for who they are, including their race, religion, gender, sexuality or disability;</li>
          <li>pretend to be another person, artist or brand;</li>
          <li>use @mentions to spam people, or fake likes and listeners with extra accounts;</li>
          <li>
            scrape SelfSound with automated tools, overload it, or try to get around its security
            or into other people&apos;s accounts.
          </li>
        </ul>
        <p>
          If someone bothers you, block them from their profile, and report posts that break these
          terms from the post&apos;s menu.
        </p>
      </>
    ),
  },
  {
    id: 'suspension',
    title: 'Moderation and suspension',
    body: (
      <>
        <p>
          A person on our team reads every report. We may remove content that breaks these terms,
          and we may suspend an account for a while or for good, depending on how serious the
          breach is and whether it keeps happening. Something clearly illegal is removed at once
          and may be passed to the authorities.
        </p>
        <p>
          When we remove something of yours or suspend your account, we will tell you why unless
          the law or someone&apos;s safety stops us. If you think we got it wrong, write to{' '}
          <EmailLink subject="Moderation appeal" /> and a different person will look at it again.
        </p>
      </>
    ),
  },
  {
    id: 'copyright',
    title: 'Copyright',
    body: (
      <>
        <p>
          We respect the work of musicians, songwriters and composers, and we expect you to do the
          same. If you believe a post on SelfSound uses your work without permission, write to{' '}
          <EmailLink subject="Copyright notice" /> with:
        </p>
        <ul>
          <li>a link to the post;</li>
          <li>the work you own, and how the post uses it;</li>
          <li>your name and how we can reach you;</li>
          <li>
            a statement that you own the rights, or may act for whoever does, and that you believe
            in good faith that the use is not allowed.
          </li>
        </ul>
        <p>
          We remove infringing posts promptly and tell the person who posted them, who may answer
          if they believe the notice is wrong. Accounts that infringe again and again are closed.
          Please only send a notice you are sure of: a false one harms another musician.
        </p>
      </>
    ),
  },
  {
    id: 'privacy',
    title: 'Privacy',
    body: (
      <p>
        Our <Link to="/privacy">Privacy Policy</Link> explains what we keep about you, why, for how
        long, and what you can ask us to do with it. It is part of these terms, so please read it
        too.
      </p>
    ),
  },
  {
    id: 'feedback',
    title: 'Feedback',
    body: (
      <p>
        We love hearing ideas for SelfSound. If you send us feedback or suggestions, we may use
        them to improve the service without owing you anything for them. Sending feedback never
        gives us any extra rights in your music or your posts.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Ending your use of SelfSound',
    body: (
      <>
        <p>
          You can stop using SelfSound at any time. Deleting your account in Settings removes your
          profile, your posts and the files you uploaded; it cannot be undone.
        </p>
        <p>
          We may close an account that seriously or repeatedly breaks these terms, or when the law
          requires us to. If we ever decide to shut SelfSound down, we will tell you well in
          advance so you have time to save your work.
        </p>
      </>
    ),
  },
];

/** /terms: the Terms of Use (spec §2 "Static pages"), plain words for a small music community. */
export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Use"
      lead="The rules for using SelfSound, in plain words. By creating an account or using SelfSound you agree to them."
      sections={TERMS_SECTIONS}
      closing={{
        title: 'Changes and questions',
        body: (
          <>
            <p>
              SelfSound is a young service and is offered as it is: we work hard to keep it running
              and your files safe, but we cannot promise it will never be unavailable or make
              mistakes.
            </p>
            <p>
              When we change these terms in a way that matters, we will say so in the app before the
              change takes effect. Questions about them are welcome at{' '}
              <EmailLink subject="Terms of Use" />.
            </p>
          </>
        ),
      }}
    />
  );
}
