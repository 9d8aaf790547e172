import type { TCreditRating } from '@credit/contract';

/**
 * VantageScore 3.0 bands, as in the contract's RATING_BANDS. Copied, not imported: the contract's index
 * pulls zod, which must stay out of the widget's first-load JS.
 */
export interface RatingBand {
  rating: TCreditRating;
  min: number;
  max: number;
}

const VERY_POOR: RatingBand = { rating: 'very_poor', min: 300, max: 499 };

export const RATING_BANDS: readonly RatingBand[] = [
  VERY_POOR,
  { rating: 'poor', min: 500, max: 600 },
  { rating: 'fair', min: 601, max: 660 },
  { rating: 'good', min: 661, max: 780 },
  { rating: 'excellent', min: 781, max: 850 },
];

export const SCORE_MIN = 300;
export const SCORE_MAX = 850;

export const bandOf = (rating: TCreditRating): RatingBand => RATING_BANDS.find((band) => band.rating === rating) ?? VERY_POOR;

/** The band a score falls in; scores outside 300–850 are clamped, so history rows always get a rating. */
export const ratingForScore = (score: number): TCreditRating => {
  const clamped = Math.min(SCORE_MAX, Math.max(SCORE_MIN, Math.round(score)));
  return (RATING_BANDS.find((band) => clamped >= band.min && clamped <= band.max) ?? VERY_POOR).rating;
};
