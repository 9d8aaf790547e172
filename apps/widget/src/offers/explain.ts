import type { TOffer, TRefinanceAccountKind } from '@credit/contract';
import type { I18n } from '../i18n/index.ts';
import type { Duration, messages } from './messages.ts';

type Messages = (typeof messages)['en'];
type Reason = NonNullable<TOffer['qualification']>['reasons'][number];
type Savings = NonNullable<TOffer['estimatedSavings']>;
type Formats = Pick<I18n, 'formatCurrency' | 'formatPercent' | 'intlLocale'>;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** "credit card or personal loan", "IL o WI": alternatives in the locale's words (commas where Intl has no lists). */
const either = (items: string[], intlLocale: string) =>
  typeof Intl.ListFormat === 'function'
    ? new Intl.ListFormat(intlLocale, { type: 'disjunction' }).format(items)
    : items.join(', ');

/** Months as the rule asks for them: in years when it asks for whole years (the figure rounded down), else in months. */
const durations = (actualMonths: number, requiredMonths: number): [Duration, Duration] =>
  requiredMonths >= 12 && requiredMonths % 12 === 0
    ? [
        { count: Math.floor(actualMonths / 12), unit: 'years' },
        { count: requiredMonths / 12, unit: 'years' },
      ]
    : [
        { count: actualMonths, unit: 'months' },
        { count: requiredMonths, unit: 'months' },
      ];

/**
 * One requirement of the offer and how the customer stands against it, in the customer's language, built from the
 * reason's figures and the offer's own rules; the API's English `message` stands in for a rule (or a shape of
 * figures) this widget does not know.
 */
export const reasonText = (reason: Reason, offer: TOffer, t: Messages, formats: Formats): string => {
  const { actual, required } = reason;
  const percent = (value: number) => formats.formatPercent(value, { maximumFractionDigits: 1 });
  switch (reason.rule) {
    case 'score': {
      if (!isNumber(actual)) break;
      const { minScore, maxScore } = offer.rules;
      if (minScore !== undefined && maxScore !== undefined) return t.scoreBetween(actual, minScore, maxScore);
      if (minScore !== undefined) return t.scoreAtLeast(actual, minScore);
      if (maxScore !== undefined) return t.scoreAtMost(actual, maxScore);
      break;
    }
    case 'utilization':
      if (!isNumber(required)) break;
      if (actual === null) return t.utilizationNoCard(percent(required));
      if (isNumber(actual)) return t.utilization(percent(actual), percent(required));
      break;
    case 'file_age': {
      if (!isNumber(required)) break;
      if (actual === null) return t.fileAgeNone(durations(0, required)[1]);
      if (!isNumber(actual)) break;
      const [had, asked] = durations(actual, required);
      return t.fileAge(had, asked);
    }
    case 'delinquency':
      if (!isNumber(required)) break;
      if (reason.met) return t.noLatePayments(required);
      return isNumber(actual) ? t.latePayment(actual, required) : t.latePaymentOnFile(required);
    case 'state': {
      if (typeof required !== 'string') break;
      const state = typeof actual === 'string' ? actual : null;
      if (reason.met && state) return t.stateMet(state);
      return t.stateNotMet(either(required.split(','), formats.intlLocale), state);
    }
    case 'refinance': {
      if (reason.met && isNumber(actual) && actual > 0) return t.refinanceMet(actual);
      if (reason.met || typeof required !== 'string') break;
      const kinds = required.split(',').filter((kind): kind is TRefinanceAccountKind => Object.hasOwn(t.refinanceKinds, kind));
      if (kinds.length === 0) break;
      const minBalance = offer.rules.refinance?.minBalance;
      return t.refinanceNotMet(
        either(
          kinds.map((kind) => t.refinanceKinds[kind]),
          formats.intlLocale,
        ),
        minBalance ? formats.formatCurrency(minBalance) : null,
      );
    }
    case 'tier': {
      if (!isNumber(actual)) break;
      if (!reason.met) return t.tierNotMet(actual);
      const tier = offer.tiers.find((band) => actual >= band.minScore && actual <= band.maxScore);
      if (tier) return t.tierMet(tier.minScore, tier.maxScore, formats.formatPercent(tier.apr));
      break;
    }
  }
  return reason.message;
};

/** Which change a saving makes, as the rounded figures show it: never a saving they do not. */
export type SavingsClaim =
  | 'lower_payment_and_cost'
  | 'lower_cost_higher_payment'
  | 'lower_cost_same_payment'
  | 'lower_payment_higher_cost'
  | 'lower_payment_same_cost';

/**
 * The claim the figures support, from the signed whole-dollar changes (the API's `verdict` names the same signs, but
 * a change that rounds to $0 is "about the same", not a saving); null when neither goes down.
 */
export const savingsClaim = (savings: Pick<Savings, 'monthlyChange' | 'totalCostChange'>): SavingsClaim | null => {
  const monthly = Math.round(savings.monthlyChange);
  const total = Math.round(savings.totalCostChange);
  if (total < 0)
    return monthly < 0 ? 'lower_payment_and_cost' : monthly > 0 ? 'lower_cost_higher_payment' : 'lower_cost_same_payment';
  if (monthly < 0) return total > 0 ? 'lower_payment_higher_cost' : 'lower_payment_same_cost';
  return null;
};

/** "Lower your payment by $84 a month and pay $2,210 less overall", or null when there is nothing honest to say. */
export const savingsText = (savings: Savings, t: Messages, formats: Formats): string | null => {
  const claim = savingsClaim(savings);
  if (!claim) return null;
  const monthly = formats.formatCurrency(Math.abs(Math.round(savings.monthlyChange)));
  const total = formats.formatCurrency(Math.abs(Math.round(savings.totalCostChange)));
  switch (claim) {
    case 'lower_payment_and_cost':
      return t.lowerPaymentAndCost(monthly, total);
    case 'lower_cost_higher_payment':
      return t.lowerCostHigherPayment(total, monthly);
    case 'lower_cost_same_payment':
      return t.lowerCostSamePayment(total);
    case 'lower_payment_higher_cost':
      return t.lowerPaymentHigherCost(monthly, total, savings.offerTermMonths > savings.currentRemainingMonths);
    case 'lower_payment_same_cost':
      return t.lowerPaymentSameCost(monthly);
  }
};
