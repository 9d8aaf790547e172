import type { TCreditRating } from '@credit/contract';
import { RATING_BANDS } from './bands.ts';

const WIDTH = 240;
const HEIGHT = 142;
const CX = 120;
const CY = 120;
const RADIUS = 100;
/** Degrees left blank between bands, so the bands stay apart where colours are forced to one. */
const GAP_DEGREES = 1.6;

const point = (fraction: number, radius = RADIUS) => {
  const angle = Math.PI * (1 - fraction);
  return { x: CX + radius * Math.cos(angle), y: CY - radius * Math.sin(angle) };
};

const arcPath = (from: number, to: number) => {
  const start = point(from);
  const end = point(to);
  return `M ${start.x.toFixed(2)} ${start.y.toFixed(2)} A ${RADIUS} ${RADIUS} 0 0 1 ${end.x.toFixed(2)} ${end.y.toFixed(2)}`;
};

export interface ScoreDialProps {
  score: number;
  rating: TCreditRating;
  min: number;
  max: number;
  /** The accessible name: the gauge's meaning in words. */
  label: string;
  minLabel: string;
  maxLabel: string;
}

/**
 * A half-circle gauge, 300 on the left to 850 on the right, one arc per rating band and a marker at the score.
 * The score and rating are also written out next to it, so nothing depends on telling the colours apart.
 */
export function ScoreDial({ score, rating, min, max, label, minLabel, maxLabel }: ScoreDialProps) {
  const span = max - min;
  const fractionOf = (value: number) => Math.min(1, Math.max(0, (value - min) / span));
  const gap = GAP_DEGREES / 180 / 2;
  // The marker is drawn at the right end (850) and turned into place, which lets CSS sweep it in from 300.
  const turn = 180 * fractionOf(score) - 180;
  const end = point(1);
  return (
    <svg className="cw-dial__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} focusable="false">
      {RATING_BANDS.map((band) => {
        const from = fractionOf(band.min === min ? band.min : band.min - 0.5);
        const to = fractionOf(band.max === max ? band.max : band.max + 0.5);
        return (
          <path
            key={band.rating}
            d={arcPath(from + (band.min === min ? 0 : gap), to - (band.max === max ? 0 : gap))}
            className={`cw-dial__band cw-rating--${band.rating} ${band.rating === rating ? 'cw-dial__band--current' : ''}`}
          />
        );
      })}
      <g className="cw-dial__marker" style={{ transform: `rotate(${turn}deg)`, transformOrigin: `${CX}px ${CY}px` }}>
        <circle cx={end.x} cy={end.y} r={12} className="cw-dial__marker-ring" />
        <circle cx={end.x} cy={end.y} r={5} className={`cw-dial__marker-dot cw-rating--${rating}`} />
      </g>
      <text x={CX - RADIUS} y={HEIGHT - 2} textAnchor="middle" className="cw-dial__end-label">
        {minLabel}
      </text>
      <text x={CX + RADIUS} y={HEIGHT - 2} textAnchor="middle" className="cw-dial__end-label">
        {maxLabel}
      </text>
    </svg>
  );
}
