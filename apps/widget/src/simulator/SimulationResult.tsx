import type { TSimulation } from '@credit/contract';
import { useId } from 'react';
import { messages as factorMessages } from '../factors/messages.ts';
import { useI18n, useMessages } from '../i18n/index.ts';
import { messages as scoreMessages } from '../score/messages.ts';
import { ScoreDial } from '../score/ScoreDial.tsx';
import { Badge, type BadgeTone } from '../ui/Badge.tsx';
import { messages } from './messages.ts';
import '../score/score.css';

type SimulatedFactor = TSimulation['factors'][number];
type FactorChange = 'better' | 'worse' | 'same';

const CHANGE_ICONS: Record<FactorChange, string> = { better: '▲', worse: '▼', same: '▶' };
const CHANGE_TONES: Record<FactorChange, BadgeTone> = { better: 'success', worse: 'danger', same: 'neutral' };

const changeOf = (factor: SimulatedFactor): FactorChange =>
  factor.after.score > factor.before.score ? 'better' : factor.after.score < factor.before.score ? 'worse' : 'same';

/**
 * The estimate: the gauge at the simulated score with the change written out (sign, arrow and words, never colour
 * alone), each factor before and after, and the disclaimer. While `stale`, the choices have changed since it ran.
 */
export function SimulationResult({ simulation, stale, busy }: { simulation: TSimulation; stale: boolean; busy: boolean }) {
  const t = useMessages(messages);
  const scoreText = useMessages(scoreMessages);
  const factorText = useMessages(factorMessages);
  const { formatNumber, locale } = useI18n();
  const headingId = useId();
  const { simulatedScore, simulatedRating, currentScore, currentRating, scoreRange, change } = simulation;
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'stable';
  const ratingName = scoreText.ratings[simulatedRating];
  // Factors that move come first, the biggest move at the top; the order the API gives settles ties.
  const factors = [...simulation.factors].sort(
    (a, b) => Math.abs(b.after.score - b.before.score) - Math.abs(a.after.score - a.before.score),
  );
  const standing = (value: { score: number; impact: SimulatedFactor['before']['impact'] }) =>
    `${factorText.standing(formatNumber(value.score))} · ${factorText.impact[value.impact]}`;

  return (
    <section
      className="cw-sim-result cw-stale-while-busy"
      aria-labelledby={headingId}
      aria-busy={busy || undefined}
      data-stale={stale || undefined}
    >
      <h3 id={headingId}>{t.resultHeading}</h3>
      {stale ? <p className="cw-sim-result__stale">{t.stale}</p> : null}
      <div className="cw-dial">
        <ScoreDial
          score={simulatedScore}
          rating={simulatedRating}
          min={scoreRange.min}
          max={scoreRange.max}
          minLabel={formatNumber(scoreRange.min)}
          maxLabel={formatNumber(scoreRange.max)}
          label={t.dialLabel(
            formatNumber(simulatedScore),
            ratingName,
            formatNumber(scoreRange.min),
            formatNumber(scoreRange.max),
          )}
        />
        <p className="cw-dial__readout">
          <span className="cw-dial__score">{formatNumber(simulatedScore)}</span>
          <span className="cw-visually-hidden">, </span>
          <span className="cw-dial__rating">{ratingName}</span>
          <span className="cw-visually-hidden">, </span>
          <span className={`cw-dial__trend cw-dial__trend--${direction} cw-sim-result__change`} data-change={change}>
            <span aria-hidden="true" className="cw-dial__trend-icon">
              {CHANGE_ICONS[change > 0 ? 'better' : change < 0 ? 'worse' : 'same']}
            </span>{' '}
            {t.change(change, formatNumber(Math.abs(change)))}
          </span>
        </p>
      </div>
      <p className="cw-sim-result__now">{t.now(formatNumber(currentScore), scoreText.ratings[currentRating])}</p>

      <h4>{t.factorsHeading}</h4>
      <ul className="cw-sim-factors">
        {factors.map((factor) => {
          const moved = changeOf(factor);
          // A factor this build does not know yet still shows, under the API's (English) name.
          const name = (factorText.factors[factor.code] as { name: string } | undefined)?.name ?? factor.name;
          return (
            <li key={factor.code} className="cw-sim-factor">
              <div className="cw-sim-factor__head">
                <span className="cw-sim-factor__name">{name}</span>
                <Badge tone={CHANGE_TONES[moved]}>
                  <span aria-hidden="true">{CHANGE_ICONS[moved]}</span> {t.factorChange[moved]}
                </Badge>
              </div>
              <dl className="cw-sim-factor__figures">
                <div>
                  <dt>{t.before}</dt>
                  <dd>{standing(factor.before)}</dd>
                </div>
                <div>
                  <dt>{t.after}</dt>
                  <dd>{standing(factor.after)}</dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>

      <div className="cw-sim-disclaimer">
        <h4>{t.disclaimerHeading}</h4>
        {/* The API's words in English (they may change with the model); other languages say the same in their own. */}
        <p>{locale === 'en' || !t.disclaimer ? simulation.disclaimer : t.disclaimer}</p>
      </div>
    </section>
  );
}
