import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { creditScoreQuery } from '../api/credit.ts';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { LoadingRegion } from '../ui/Skeleton.tsx';
import { bandOf } from './bands.ts';
import { messages } from './messages.ts';
import { RatingBands } from './RatingBands.tsx';
import { RefreshScore } from './RefreshScore.tsx';
import { ScoreDial } from './ScoreDial.tsx';
import { ScoreSkeleton } from './ScoreSkeleton.tsx';
import './score.css';

const TREND_ICONS = { up: '▲', down: '▼', stable: '▶' } as const;

/** The score tab: the gauge, the score in words ("712, Good, up 8 points in 3 months") and the bands explained. */
export function ScorePanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const { formatNumber } = useI18n();
  const headingId = useId();
  const score = useQuery(creditScoreQuery(api, userId));

  if (score.isPending) {
    return (
      <LoadingRegion label={t.loading}>
        <ScoreSkeleton />
      </LoadingRegion>
    );
  }
  if (score.isError) return <PanelError error={score.error} onRetry={() => score.refetch()} />;

  const { score: value, rating, scoreRange, trend } = score.data;
  const band = bandOf(rating);
  const ratingName = t.ratings[rating];
  const trendWords = t.trend(trend, formatNumber(Math.abs(trend.change)));
  // Shown on its own line, so it starts with a capital; the words stay lower case inside other sentences.
  const trendText = trendWords.charAt(0).toLocaleUpperCase() + trendWords.slice(1);
  return (
    <section className="cw-score" aria-labelledby={headingId}>
      <h2 id={headingId} className="cw-score__heading">
        {t.heading}
      </h2>
      <div className="cw-dial">
        <ScoreDial
          score={value}
          rating={rating}
          min={scoreRange.min}
          max={scoreRange.max}
          minLabel={formatNumber(scoreRange.min)}
          maxLabel={formatNumber(scoreRange.max)}
          label={t.dialLabel(
            formatNumber(value),
            ratingName,
            formatNumber(scoreRange.min),
            formatNumber(scoreRange.max),
            formatNumber(band.min),
            formatNumber(band.max),
          )}
        />
        {/* One sentence for screen readers ("712, Good, up 8 points…"); the commas are hidden, the layout stacks it. */}
        <p className="cw-dial__readout">
          <span className="cw-dial__score">{formatNumber(value)}</span>
          <span className="cw-visually-hidden">, </span>
          <span className="cw-dial__rating">{ratingName}</span>
          <span className="cw-visually-hidden">, </span>
          <span className={`cw-dial__trend cw-dial__trend--${trend.direction}`}>
            <span aria-hidden="true" className="cw-dial__trend-icon">
              {TREND_ICONS[trend.direction]}
            </span>{' '}
            {trendText}
          </span>
        </p>
      </div>
      <RefreshScore userId={userId} />
      <p className="cw-score__meaning">{t.ratingMeaning[rating]}</p>
      <RatingBands current={rating} />
    </section>
  );
}
