import { Link } from 'react-router';
import { ContactCard } from './contact';
import { Card, StaticPage } from './static-page';

export const NO_LIVE_SUPPORT = 'There is no live chat or phone support.';

/** /support (spec §2): contact by e-mail only, and please no duplicate messages. */
export function SupportPage() {
  return (
    <StaticPage
      eyebrow="Help"
      title="Support"
      lead="Something not working, or a question about your account? We are a small team and we read every message."
    >
      <ContactCard title="Write to us by e-mail" subject="SelfSound support">
        <p>E-mail is how you reach us. {NO_LIVE_SUPPORT}</p>
      </ContactCard>

      <Card title="Please send your message only once" id="duplicates">
        <p>
          Every message goes into one queue and we answer them in the order they arrive. Sending the
          same message again, or from another address, does not move it forward: it gives us
          duplicates to match up and slows down the replies for everyone.
        </p>
        <p>If you have something to add, reply to your first message instead of starting a new one.</p>
      </Card>

      <Card title="What to put in your message" id="include">
        <ul>
          <li>The e-mail address of your SelfSound account and your @login.</li>
          <li>What you were doing, what happened, and any message the app showed you.</li>
          <li>The device and browser you use, for example an iPhone with Safari.</li>
          <li>A screenshot, if it shows the problem better than words.</li>
        </ul>
        <p>
          Never send us your password. Nobody at SelfSound will ever ask for it.
        </p>
      </Card>

      <Card title="Quicker answers" id="self-help">
        <ul>
          <li>
            <strong>Forgot your password?</strong> Use{' '}
            <Link to="/forgot-password">Forgot password?</Link> on the Log in page and we will
            e-mail you a link to set a new one.
          </li>
          <li>
            <strong>A post breaks the rules?</strong> Open the three-dot menu on the post and
            choose Report. Reports go straight to the people who moderate SelfSound.
          </li>
          <li>
            <strong>Someone is bothering you?</strong> Open their profile and choose Block user.
          </li>
          <li>
            <strong>Signed in on a device you no longer use?</strong> Settings lists your sessions
            and lets you sign them out.
          </li>
        </ul>
      </Card>
    </StaticPage>
  );
}
