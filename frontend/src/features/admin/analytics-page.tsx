import { useQuery } from '@tanstack/react-query';
import { PageSpinner, Spinner } from '../../components/spinner';
import { useViewer } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { CHART_DAYS, adminQueries, analyticsErrorMessage, type AnalyticsCardJson } from './api';
import { DailyChart } from './components/daily-chart';
import { LoadError } from './components/load-error';
import { PageHeader } from './components/page-header';
import { AdminRefused } from './admin-access-required';
import { useLeaveWhenRefused } from './use-leave-when-refused';
import styles from './analytics-page.module.css';

const numberFormat = new Intl.NumberFormat();

function Cards({ cards }: { cards: readonly AnalyticsCardJson[] }) {
  return (
    <ul className={styles.cards} aria-label="Totals">
      {cards.map((card) => (
        <li key={card.posts_title} className={`card ${styles.card}`}>
          <span className={styles.cardTitle}>{card.posts_title}</span>
          <span className={styles.cardValue}>{numberFormat.format(card.posts_data)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin/a (spec §2 Admin panel): the server's totals as cards with a title and a value, in a
 * grid of up to four columns, and the last 30 days of sign-ups, posts and reports as a chart.
 * A refusal says 'Admin access required' here (403) or goes to sign in (401; spec §8 Admin).
 */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  const viewerId = useViewer()?.id;
  const analytics = useQuery(adminQueries.analytics(viewerId));
  const daily = useQuery(adminQueries.daily(viewerId, CHART_DAYS));
  const refusal = useLeaveWhenRefused(analytics.error ?? daily.error);

  if (refusal) return <AdminRefused refusal={refusal} />;

  return (
    <>
      <PageHeader title="Analytics" lead="How SelfSound is doing, counted by the server just now." />

      {analytics.isPending ? (
        <PageSpinner label="Loading analytics" />
      ) : analytics.isError ? (
        <LoadError
          message={analyticsErrorMessage(analytics.error)}
          busy={analytics.isFetching}
          onRetry={() => void analytics.refetch()}
        />
      ) : (
        <Cards cards={analytics.data} />
      )}

      <section className={`card ${styles.section}`} aria-labelledby="daily-title">
        <header className={styles.sectionHeader}>
          <h2 id="daily-title">Last {CHART_DAYS} days</h2>
          <p>New accounts, posts and reports each day (UTC).</p>
        </header>
        {daily.isPending ? (
          <p className={styles.loading} role="status">
            <Spinner size="sm" label="" />
            Loading the chart...
          </p>
        ) : daily.isError ? (
          <LoadError
            message={analyticsErrorMessage(daily.error)}
            busy={daily.isFetching}
            onRetry={() => void daily.refetch()}
          />
        ) : (
          <DailyChart days={daily.data} />
        )}
      </section>
    </>
  );
}
