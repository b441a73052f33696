import { Link } from 'react-router';
import { Card, StaticPage } from './static-page';
import styles from './social-pages.module.css';

interface Network {
  name: 'Instagram' | 'Discord';
  /** What someone pretending to be us would run there. */
  kind: 'account' | 'server';
  plans: string;
}

/** One page per network (spec §2): neither is live yet. */
function SocialPage({ name, kind, plans }: Network) {
  return (
    <StaticPage eyebrow="Community" title={`SelfSound on ${name}`} lead={`Our ${name} is not live yet.`}>
      <Card title="Coming later" id="plans">
        <p>{plans}</p>
        <p>
          Until it opens, any {name} {kind} that says it is SelfSound is not run by us.
        </p>
      </Card>
      <Card title="Until then" id="meanwhile">
        <p>The SelfSound community is already here: find people to listen to and share what you play.</p>
        <div className={styles.actions}>
          <Link to="/home" className="btn btn-primary">
            Explore SelfSound
          </Link>
          <Link to="/support" className="btn btn-secondary">
            Contact support
          </Link>
        </div>
      </Card>
    </StaticPage>
  );
}

export function InstagramPage() {
  return (
    <SocialPage
      name="Instagram"
      kind="account"
      plans="We are getting our Instagram ready: a look behind the scenes of how SelfSound is made, and music shared by our members, with their permission."
    />
  );
}

export function DiscordPage() {
  return (
    <SocialPage
      name="Discord"
      kind="server"
      plans="We are preparing a Discord server where members can talk about music, swap feedback, find people to play with, and tell us what to build next."
    />
  );
}
