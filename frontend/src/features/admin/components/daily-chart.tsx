import { useElementWidth } from '../../../lib/use-element-width';
import type { DailyCountsJson } from '../api';
import styles from './daily-chart.module.css';

type SeriesKey = 'sign_ups' | 'posts' | 'reports';

/** The three lines; colours (and the dashes of reports) come from the stylesheet. */
export const CHART_SERIES: readonly { key: SeriesKey; label: string; one: string; many: string }[] = [
  { key: 'sign_ups', label: 'Sign-ups', one: 'sign-up', many: 'sign-ups' },
  { key: 'posts', label: 'Posts', one: 'post', many: 'posts' },
  { key: 'reports', label: 'Reports', one: 'report', many: 'reports' },
];

const SERIES_CLASS: Record<SeriesKey, string | undefined> = {
  sign_ups: styles.signUps,
  posts: styles.posts,
  reports: styles.reports,
};

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 36 };
/** The width drawn before the box is measured (and in tests, which have no layout). */
const FALLBACK_WIDTH = 640;
/** Room each date label needs along the axis. */
const LABEL_WIDTH = 64;

/** Whole-number ticks from 0 past `max`, at a 1-2-5 step, about four of them. */
export function ticksFor(max: number): number[] {
  const top = Math.max(max, 1);
  const rough = top / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 1);
  return Array.from({ length: Math.ceil(top / step) + 1 }, (_, i) => i * step);
}

/** 'YYYY-MM-DD' as 'Nov 3' (the day as the server counted it, in UTC). */
function shortDate(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return day.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A date label centred under its day, or kept inside the box at either end. */
function labelAt(cx: number, width: number): { x: number; textAnchor: 'start' | 'middle' | 'end' } {
  const half = LABEL_WIDTH / 2 - 6;
  if (cx + half > width) return { x: width - 1, textAnchor: 'end' };
  if (cx - half < 0) return { x: 1, textAnchor: 'start' };
  return { x: cx, textAnchor: 'middle' };
}

function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function daySummary(day: DailyCountsJson): string {
  return CHART_SERIES.map((s) => counted(day[s.key], s.one, s.many)).join(', ');
}

/**
 * Sign-ups, posts and reports per day as three lines, drawn here in SVG (no chart library in
 * the panel's chunk). The SVG is one image to screen readers, with a summary as its label; the
 * numbers are in a visually hidden table, and each day's <title> shows on hover.
 */
export function DailyChart({ days }: { days: readonly DailyCountsJson[] }) {
  // Followed as the box changes, so text keeps its size on a phone.
  const { ref, width } = useElementWidth(FALLBACK_WIDTH, days.length > 0);
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return <p className={styles.empty}>No activity to show yet.</p>;

  const totals = Object.fromEntries(
    CHART_SERIES.map((s) => [s.key, days.reduce((sum, d) => sum + d[s.key], 0)]),
  ) as Record<SeriesKey, number>;
  const summary =
    `Sign-ups, posts and reports per day from ${shortDate(first.date)} to ${shortDate(last.date)}: ` +
    `${CHART_SERIES.map((s) => counted(totals[s.key], s.one, s.many)).join(', ')} in all.`;

  const ticks = ticksFor(Math.max(...days.flatMap((d) => CHART_SERIES.map((s) => d[s.key]))));
  const yMax = ticks[ticks.length - 1] ?? 1;
  const plotWidth = Math.max(width - PAD.left - PAD.right, 10);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / days.length;
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const y = (v: number) => PAD.top + plotHeight - (v / yMax) * plotHeight;
  // Date labels counted back from the last day, as many as fit.
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(plotWidth / LABEL_WIDTH))));
  // Lines that meet (often all at 0) stay apart by size: each is thinner than the one under it.
  const pointRadius = (layer: number) => (slot < 8 ? [3.5, 2.25, 1.25] : [4.5, 3, 1.75])[layer] ?? 2;

  return (
    <div className={styles.chart}>
      <ul className={styles.legend} aria-hidden="true">
        {CHART_SERIES.map((s) => (
          <li key={s.key} className={SERIES_CLASS[s.key]}>
            <span className={styles.swatch} />
            {s.label}
            <strong>{totals[s.key]}</strong>
          </li>
        ))}
      </ul>
      <div ref={ref} className={styles.box}>
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={summary}>
          <g className={styles.grid}>
            {ticks.map((t) => (
              <g key={t}>
                <line x1={PAD.left} x2={PAD.left + plotWidth} y1={y(t)} y2={y(t)} />
                <text x={PAD.left - 8} y={y(t)} dy="0.32em" textAnchor="end">
                  {t}
                </text>
              </g>
            ))}
          </g>
          <g className={styles.axis}>
            {days.map((d, i) =>
              (days.length - 1 - i) % labelEvery === 0 ? (
                <text key={d.date} y={HEIGHT - 8} {...labelAt(x(i), width)}>
                  {shortDate(d.date)}
                </text>
              ) : null,
            )}
          </g>
          {CHART_SERIES.map((s, layer) => (
            <g key={s.key} className={`${styles.series} ${SERIES_CLASS[s.key] ?? ''}`} data-series={s.key}>
              <path
                d={days.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i)},${y(d[s.key])}`).join(' ')}
                strokeWidth={[3.5, 2, 1.5][layer] ?? 2}
              />
              {days.map((d, i) => (
                <circle key={d.date} cx={x(i)} cy={y(d[s.key])} r={pointRadius(layer)} />
              ))}
            </g>
          ))}
          {/* On top, so pointing anywhere in a day's column shows its numbers. */}
          {days.map((d, i) => (
            <g key={d.date} className={styles.day}>
              <title>{`${shortDate(d.date)}: ${daySummary(d)}`}</title>
              <rect x={PAD.left + slot * i} y={PAD.top} width={slot} height={plotHeight} />
              <line x1={x(i)} x2={x(i)} y1={PAD.top} y2={PAD.top + plotHeight} />
            </g>
          ))}
        </svg>
      </div>
      <table className="visually-hidden">
        <caption>Sign-ups, posts and reports per day</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {CHART_SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              {CHART_SERIES.map((s) => (
                <td key={s.key}>{d[s.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
