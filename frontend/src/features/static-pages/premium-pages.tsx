import { Link } from 'react-router';
import { ArrowRightIcon } from '../../components/icons';
import { StarterPlanCard } from '../../components/starter-plan-card';
import { useViewer } from '../../lib/session';
import { PremiumStatus } from './premium-status';
import { Card, StaticPage } from './static-page';
import styles from './premium-pages.module.css';

/** /premium (public): what Premium is and where it stands; the free plan everyone has today. */
export function PremiumPage() {
  const viewer = useViewer();
  return (
    <StaticPage
      eyebrow="Subscription"
      title="Premium"
      lead="Premium will be SelfSound's paid plan, for people who want more from their music home. It is not ready yet."
    >
      <PremiumStatus />
      <Card title="What we are working on">
        <p>
          We are building Premium carefully, with the people who use SelfSound every day. Before it
          launches we will say exactly what it includes and what it costs, here and in the app.
        </p>
        <p>
          Nothing changes for your account unless you choose it: there is no trial that turns into
          a payment, and the free plan is not going away.
        </p>
      </Card>
      <Card title="Free today: Starter">
        <div className={styles.plan}>
          <StarterPlanCard />
          <div className={styles.planText}>
            <p>
              Everything SelfSound does today is free on the Starter plan: post audio, media, lyrics
              and sheet music, choose your role tag, listen to people and react to their posts.
            </p>
            {viewer ? (
              <Link to="/your_premium" className={styles.more}>
                See your plan <ArrowRightIcon size={16} />
              </Link>
            ) : (
              <Link to="/sign-up" className="btn btn-primary">
                Sign up for free
              </Link>
            )}
          </div>
        </div>
      </Card>
    </StaticPage>
  );
}

/** /your_premium (signed in): Premium's status and the plan the person is on. */
export function YourPremiumPage() {
  return (
    <StaticPage
      eyebrow="Subscription"
      title="Your Premium"
      lead="Your plan on SelfSound, and what is coming next."
    >
      <PremiumStatus />
      <Card title="Your plan">
        <div className={styles.plan}>
          <StarterPlanCard current />
          <div className={styles.planText}>
            <p>
              You are on Starter, our free plan. It stays free forever: you will never be charged
              for it, and you keep everything you have posted.
            </p>
            <p>When Premium is ready you will be able to choose it here. Until then there is nothing to do.</p>
            <Link to="/premium" className={styles.more}>
              Learn about Premium <ArrowRightIcon size={16} />
            </Link>
          </div>
        </div>
      </Card>
    </StaticPage>
  );
}
