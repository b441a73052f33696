import { Link } from 'react-router';
import { ContactCard } from './contact';
import { Card, StaticPage } from './static-page';

/** /advertisers (spec §1): advertising partnerships are open; how to reach us. */
export function AdvertisersPage() {
  return (
    <StaticPage
      eyebrow="Partnerships"
      title="For Advertisers"
      lead="Advertising partnerships on SelfSound are open. If your brand is good for musicians, learners and listeners, we would like to hear from you."
    >
      <Card title="Who you will reach" id="audience">
        <p>
          People come to SelfSound to share and discover music: musicians posting their tracks and
          videos, learners working through lyrics and scores, and listeners looking for new voices
          to follow.
        </p>
        <p>
          Instruments and gear, music software, lessons and courses, studios, festivals, labels and
          venues are a natural fit.
        </p>
      </Card>

      <Card title="How we work with partners" id="principles">
        <ul>
          <li>Anything sponsored is clearly labelled as sponsored.</li>
          <li>
            We do not share our members&apos; personal data with advertisers and we run no
            advertising trackers. See our <Link to="/privacy">Privacy Policy</Link>.
          </li>
          <li>
            Partnerships have to respect our <Link to="/terms">Terms of Use</Link> and the music
            community they appear in.
          </li>
        </ul>
      </Card>

      <ContactCard title="Get in touch" subject="Advertising partnership">
        <p>
          Tell us who you are, what you would like to promote, and your timing and budget. We
          reply to every enquiry by e-mail.
        </p>
      </ContactCard>
    </StaticPage>
  );
}
