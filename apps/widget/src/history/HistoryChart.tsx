import { useSyncExternalStore } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface HistoryPoint {
  date: string;
  score: number;
}

export interface HistoryChartProps {
  /** Oldest first. */
  points: HistoryPoint[];
  domain: [number, number];
  ticks: number[];
  formatMonth(date: string): string;
  formatScore(score: number): string;
  scoreLabel: string;
}

const TOOLTIP_STYLE = {
  background: 'var(--cw-surface)',
  border: '1px solid var(--cw-border)',
  borderRadius: 'var(--cw-radius)',
  color: 'var(--cw-text)',
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const subscribeReducedMotion = (listener: () => void) => {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
};
const prefersReducedMotion = () => window.matchMedia(REDUCED_MOTION).matches;

/**
 * The line chart, in its own chunk (React.lazy) so recharts stays out of the first-load JS. Hidden from
 * screen readers: the summary sentence and the table next to it carry the same figures as text.
 * Colours come from CSS (history.css), so the theme and forced colours apply to the SVG too.
 */
export default function HistoryChart({ points, domain, ticks, formatMonth, formatScore, scoreLabel }: HistoryChartProps) {
  const reducedMotion = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => true);
  // Plotted by position, not date: a refresh can add a second score on the same day, and both must be on the line.
  const data = points.map((point, index) => ({ ...point, index }));
  const monthAt = (index: unknown) => {
    const point = points[Number(index)];
    return point ? formatMonth(point.date) : '';
  };
  return (
    <div className="cw-history-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} className="cw-history-chart__grid" />
          <XAxis
            dataKey="index"
            tickFormatter={monthAt}
            minTickGap={12}
            tickLine={false}
            tickMargin={6}
            className="cw-history-chart__axis"
          />
          <YAxis
            domain={domain}
            ticks={ticks}
            // Every round tick, even when recharts thinks two labels are close: a skipped 740 reads as a gap in the scale.
            interval={0}
            tickFormatter={formatScore}
            allowDecimals={false}
            width={40}
            tickLine={false}
            className="cw-history-chart__axis"
          />
          <Tooltip
            isAnimationActive={!reducedMotion}
            labelFormatter={monthAt}
            formatter={(value) => [formatScore(Number(value)), scoreLabel]}
            contentStyle={TOOLTIP_STYLE}
            labelStyle={{ color: 'var(--cw-text)', fontWeight: 600 }}
            itemStyle={{ color: 'var(--cw-text)' }}
          />
          <Line
            type="monotone"
            dataKey="score"
            stroke="currentColor"
            strokeWidth={3}
            dot={{ r: 3, strokeWidth: 2 }}
            activeDot={{ r: 6 }}
            className="cw-history-chart__line"
            isAnimationActive={!reducedMotion}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
