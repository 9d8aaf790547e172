import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useId, useState } from 'react';
import { HISTORY_RANGES, type HistoryRange, scoreHistoryQuery } from '../api/credit.ts';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { ChartBoundary } from './ChartBoundary.tsx';
import type { HistoryPoint } from './HistoryChart.tsx';
import { HistoryTable } from './HistoryTable.tsx';
import { messages } from './messages.ts';
import './history.css';

// Its own chunk: recharts is most of the widget's weight and only this tab needs it.
const HistoryChart = lazy(() => import('./HistoryChart.tsx'));

const SCORE_FLOOR = 300;
const SCORE_CEILING = 850;

/** A y-axis a little wider than the scores, on round steps (10, 20, 25, 50…), so small moves stay visible. */
const chartScale = (points: HistoryPoint[]): { domain: [number, number]; ticks: number[] } => {
  const scores = points.map((p) => p.score);
  const low = Math.max(SCORE_FLOOR, Math.min(...scores) - 15);
  const high = Math.min(SCORE_CEILING, Math.max(...scores) + 15);
  const step = [10, 20, 25, 50, 100].find((s) => (high - low) / s <= 5) ?? 100;
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = start; tick <= end; tick += step) ticks.push(tick);
  return { domain: [start, end], ticks };
};

/** The history tab: a 6/12/24-month line chart, a sentence summing it up, and the same data as a table. */
export function HistoryPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const { formatDate, formatNumber } = useI18n();
  const headingId = useId();
  const [months, setMonths] = useState<HistoryRange>(12);
  const [asTable, setAsTable] = useState(false);
  const [chartFailed, setChartFailed] = useState(false);
  const history = useQuery(scoreHistoryQuery(api, userId, months));
  const markChartFailed = useCallback(() => setChartFailed(true), []);

  const formatMonth = (date: string) => formatDate(date, { month: 'short', year: '2-digit' });
  const formatMonthLong = (date: string) => formatDate(date, { month: 'long', year: 'numeric' });

  let body: React.ReactNode;
  if (history.isPending) {
    body = (
      <LoadingRegion label={t.loading}>
        <Skeleton height={240} />
      </LoadingRegion>
    );
  } else if (history.isError) {
    body = <PanelError error={history.error} onRetry={() => history.refetch()} />;
  } else if (history.data.length === 0) {
    body = <p className="cw-history__empty">{t.empty}</p>;
  } else {
    // The API sends newest first; its order also settles two scores on one day (a refresh), which a date sort cannot.
    const points = [...history.data].reverse();
    const first = points[0] as HistoryPoint;
    const last = points[points.length - 1] as HistoryPoint;
    const delta = last.score - first.score;
    const scores = points.map((p) => p.score);
    const change =
      delta === 0 ? t.noChange : delta > 0 ? t.changeUp(delta, formatNumber(delta)) : t.changeDown(-delta, formatNumber(-delta));
    const showTable = asTable || chartFailed;
    body = (
      <figure className="cw-history__figure cw-stale-while-busy" aria-busy={history.isPlaceholderData || undefined}>
        <figcaption className="cw-history__summary">
          {t.summary(
            formatNumber(first.score),
            formatMonthLong(first.date),
            formatNumber(last.score),
            formatMonthLong(last.date),
            change,
          )}{' '}
          {t.extremes(formatNumber(Math.max(...scores)), formatNumber(Math.min(...scores)))}
        </figcaption>
        {chartFailed ? <p className="cw-history__notice">{t.chartUnavailable}</p> : null}
        {showTable ? (
          <HistoryTable points={points} months={months} />
        ) : (
          <ChartBoundary fallback={<ChartFailed onFailed={markChartFailed} />}>
            <Suspense
              fallback={
                <LoadingRegion label={t.loadingChart}>
                  <Skeleton height={240} />
                </LoadingRegion>
              }
            >
              <HistoryChart
                points={points}
                {...chartScale(points)}
                formatMonth={formatMonth}
                formatScore={(score) => formatNumber(score)}
                scoreLabel={t.score}
              />
            </Suspense>
          </ChartBoundary>
        )}
      </figure>
    );
  }

  return (
    <section className="cw-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      {/* A frozen file (or any failure) has no history to choose a range of: the error screen stands alone. */}
      {history.isError ? null : (
        <div className="cw-history__controls">
          <fieldset className="cw-segmented">
            <legend className="cw-visually-hidden">{t.rangeLabel}</legend>
            {HISTORY_RANGES.map((range) => (
              <button
                key={range}
                type="button"
                className="cw-toggle-button cw-segmented__option"
                aria-pressed={range === months}
                onClick={() => setMonths(range)}
              >
                {t.range(range)}
              </button>
            ))}
          </fieldset>
          {chartFailed ? null : (
            <Button variant="secondary" onClick={() => setAsTable((v) => !v)}>
              {asTable ? t.showChart : t.showTable}
            </Button>
          )}
        </div>
      )}
      {body}
    </section>
  );
}

/** Rendered by the boundary when the chart chunk cannot load; switches the panel to the table. */
function ChartFailed({ onFailed }: { onFailed: () => void }) {
  useEffect(() => onFailed(), [onFailed]);
  return null;
}
