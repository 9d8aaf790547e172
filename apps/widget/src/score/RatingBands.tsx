import type { TCreditRating } from '@credit/contract';
import { useI18n, useMessages } from '../i18n/index.ts';
import { RATING_BANDS } from './bands.ts';
import { messages } from './messages.ts';

/** The five bands with their ranges; `current` marks the customer's (none while the score loads). */
export function RatingBands({ current }: { current?: TCreditRating }) {
  const t = useMessages(messages);
  const { formatNumber } = useI18n();
  return (
    <div className="cw-bands">
      <h3 className="cw-bands__heading">{t.bandsHeading}</h3>
      <ul className="cw-bands__list">
        {RATING_BANDS.map((b) => (
          <li key={b.rating} className={`cw-bands__item ${b.rating === current ? 'cw-bands__item--current' : ''}`}>
            <span aria-hidden="true" className={`cw-bands__swatch cw-rating--${b.rating}`} />
            <span className="cw-bands__name">{t.ratings[b.rating]}</span>
            <span className="cw-bands__range">{t.range(formatNumber(b.min), formatNumber(b.max))}</span>
            {b.rating === current ? (
              <span className="cw-bands__you">
                <span aria-hidden="true">◀ </span>
                {t.yourBand}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
