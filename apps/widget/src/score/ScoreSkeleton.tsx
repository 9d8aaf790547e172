import { Skeleton } from '../ui/Skeleton.tsx';
import { RatingBands } from './RatingBands.tsx';

/**
 * The score tab's shape before its data: the gauge and readout boxes laid out like the real ones, and the
 * bands (which need no data) as they will be. The tab, and the frame around it, then keep their height when
 * the score arrives, so neither the widget nor the partner's page below it jumps.
 */
export function ScoreSkeleton() {
  return (
    <div className="cw-score" aria-hidden="true">
      <Skeleton width="40%" height="calc(var(--cw-font-size-lg) * 1.3)" />
      <div className="cw-dial">
        <Skeleton height="auto" className="cw-score__skeleton-gauge" />
        <div className="cw-dial__readout cw-score__skeleton-readout">
          <Skeleton width={96} height={44} />
          <Skeleton width={72} height={26} />
          <Skeleton width={200} height={24} className="cw-dial__trend" />
        </div>
      </div>
      <Skeleton lines={2} height={20} />
      <RatingBands />
    </div>
  );
}
