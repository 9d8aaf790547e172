import type { TCreditFactor } from '@credit/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { creditScoreQuery } from '../api/credit.ts';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Badge, type BadgeTone } from '../ui/Badge.tsx';
import { Card } from '../ui/Card.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { type FactorImpact, messages } from './messages.ts';
import './factors.css';

const IMPACT_ORDER: Record<FactorImpact, number> = { high: 0, medium: 1, low: 2 };
const IMPACT_TONE: Record<FactorImpact, BadgeTone> = { high: 'danger', medium: 'warning', low: 'success' };
const IMPACT_BARS: Record<FactorImpact, number> = { high: 3, medium: 2, low: 1 };

/** Three bars, as many filled as the impact is strong: a shape cue that works without colour. */
function ImpactIcon({ impact }: { impact: FactorImpact }) {
  return (
    <svg className="cw-impact-icon" viewBox="0 0 15 12" width="15" height="12" aria-hidden="true" focusable="false">
      {[0, 1, 2].map((i) => (
        <rect
          key={i}
          x={i * 5}
          y={8 - i * 4}
          width="4"
          height={4 + i * 4}
          rx="1"
          className={i < IMPACT_BARS[impact] ? 'cw-impact-icon__bar--on' : 'cw-impact-icon__bar--off'}
        />
      ))}
    </svg>
  );
}

function FactorDetails({ factor }: { factor: TCreditFactor }) {
  const t = useMessages(messages);
  const { formatNumber, formatCurrency, formatPercent } = useI18n();
  const years = (value: number) => t.years(formatNumber(value, { maximumFractionDigits: 1 }));
  let rows: [string, string][] = [];
  if (factor.code === 'CREDIT_UTILIZATION' && factor.details) {
    const { utilizationPercent, totalBalance, totalLimit } = factor.details;
    rows = [
      [
        t.utilization,
        t.utilizationValue(
          formatPercent(utilizationPercent, { maximumFractionDigits: 1 }),
          formatCurrency(totalBalance),
          formatCurrency(totalLimit),
        ),
      ],
    ];
  } else if (factor.code === 'CREDIT_AGE' && factor.details) {
    rows = [
      [t.averageAge, years(factor.details.averageAgeYears)],
      [t.oldestAccount, years(factor.details.oldestAccountYears)],
    ];
  } else if (factor.code === 'NEW_CREDIT' && factor.details) {
    rows = [[t.recentInquiries, formatNumber(factor.details.recentInquiries)]];
  }
  if (rows.length === 0) return null;
  return (
    <dl className="cw-factor__details">
      {rows.map(([term, value]) => (
        <div key={term} className="cw-factor__detail">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Factor({ factor }: { factor: TCreditFactor }) {
  const t = useMessages(messages);
  const { formatNumber, locale } = useI18n();
  // A code this build does not know yet still shows, with the API's own (English) wording and no advice.
  const text = t.factors[factor.code] as (typeof t.factors)[keyof typeof t.factors] | undefined;
  const standing = Math.min(100, Math.max(0, factor.score));
  return (
    <Card
      as="li"
      titleLevel={3}
      className="cw-factor"
      title={text?.name ?? factor.name}
      aside={
        <Badge tone={IMPACT_TONE[factor.impact]} className="cw-factor__impact">
          <ImpactIcon impact={factor.impact} />
          {t.impact[factor.impact]}
        </Badge>
      }
    >
      {/* The API's sentence is about this user's own file but English only; other languages get the general one. */}
      <p className="cw-factor__about">{locale === 'en' || !text ? factor.description || text?.about : text.about}</p>
      <div className="cw-factor__standing">
        <p>
          <span className="cw-factor__standing-label">{t.standingLabel}: </span>
          <strong>{t.standing(formatNumber(standing))}</strong>
        </p>
        <span className="cw-factor__bar" aria-hidden="true">
          <span className="cw-factor__bar-fill" style={{ width: `${standing}%` }} />
        </span>
      </div>
      <FactorDetails factor={factor} />
      {text ? (
        <div className="cw-factor__advice">
          <h4 className="cw-factor__advice-heading">{t.adviceHeading}</h4>
          <p>{text.advice[factor.impact]}</p>
        </div>
      ) : null}
    </Card>
  );
}

/** The factors tab: each factor's impact in words and as an icon, its figures, and what to do about it. */
export function FactorsPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const headingId = useId();
  const score = useQuery(creditScoreQuery(api, userId));

  if (score.isPending) {
    return (
      <LoadingRegion label={t.loading}>
        <Skeleton width="50%" height={24} />
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} lines={3} />
        ))}
      </LoadingRegion>
    );
  }
  if (score.isError) return <PanelError error={score.error} onRetry={() => score.refetch()} />;

  const factors = [...score.data.factors].sort((a, b) => IMPACT_ORDER[a.impact] - IMPACT_ORDER[b.impact]);
  return (
    <section className="cw-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      <p className="cw-muted">{t.intro}</p>
      {factors.length === 0 ? (
        <p className="cw-muted">{t.empty}</p>
      ) : (
        <ul className="cw-card-list">
          {factors.map((factor) => (
            <Factor key={factor.code} factor={factor} />
          ))}
        </ul>
      )}
    </section>
  );
}
