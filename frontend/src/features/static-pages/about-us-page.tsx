import { Link } from 'react-router';
import { EmailLink } from './contact';
import { Card, StaticPage } from './static-page';

/** /about-us (spec §1): a small team, a home for every voice in music. */
export function AboutUsPage() {
  return (
    <StaticPage
      eyebrow="Company"
      title="About us"
      lead="SelfSound is a home for every voice in music, built by a small team that loves it."
    >
      <Card title="Why we made SelfSound" id="why">
        <p>
          Most platforms treat music as something to scroll past. We wanted the opposite: a place
          where a first cover recorded on a phone sits next to a finished track, where a learner
          can share the score they are stuck on, and where a listener can tell an artist what a
          song meant to them.
        </p>
        <p>
          So we built SelfSound for the people who make music, the people who are learning it, and
          the people who simply love to listen. Everyone gets the same tools and the same voice.
        </p>
      </Card>

      <Card title="A small team" id="team">
        <p>
          SelfSound is built by a small team. We write the code, answer the support e-mails and
          read the reports ourselves, which means we hear what works and what does not, and we
          can change things quickly.
        </p>
        <p>
          It also means we cannot do everything at once. We would rather build a few things well
          than many things badly.
        </p>
      </Card>

      <Card title="What we care about" id="values">
        <ul>
          <li>
            <strong>Music first.</strong> Audio, media, lyrics and sheet music each have a post type
            made for them.
          </li>
          <li>
            <strong>Every voice counts.</strong> Listener, Musician or Learner: your role tag says
            who you are, not how important you are.
          </li>
          <li>
            <strong>Respect.</strong> Block anyone, report anything, and know that a person reads
            every report.
          </li>
          <li>
            <strong>Honesty with your data.</strong> We do not sell it and we run no advertising
            trackers. Our <Link to="/privacy">Privacy Policy</Link> says exactly what we keep.
          </li>
        </ul>
      </Card>

      <Card title="The sounds of scores" id="sounds">
        <p>
          Scores play on sampled instruments from MuseScore's General SoundFont by S. Christian
          Collins (MIT; its Splendid Grand piano is in the public domain, its drumline CC0), based
          on Frank Wen's Fluid (R3) SoundFont, played in your browser by SpessaSynth (Apache-2.0).
          Thank you to everyone who recorded and shared them.
        </p>
      </Card>

      <Card title="Say hello" id="hello">
        <p>
          Questions, ideas or a story about what SelfSound means to you: write to{' '}
          <EmailLink subject="Hello from a SelfSound member" />. New here?{' '}
          <Link to="/about-selfsound">See what SelfSound offers</Link>.
        </p>
      </Card>
    </StaticPage>
  );
}
