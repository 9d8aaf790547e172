import type { TOfferQualification, TOfferSavings } from '@credit/contract';
import { monthsSince } from '../../bureau/dates.ts';
import type { CreditFile, PaymentStatus } from '../../bureau/provider.ts';
import { type OfferBody, tierFor } from './catalogue.ts';
import { compareRefinance, financedAmount, type RefinanceableAccount, refinanceableAccounts } from './savings.ts';

/** What the rules read from a customer's file on record (and the state of their enrolled address). */
export interface OfferFacts {
  score: number;
  /** Card balances over card limits, percent, one decimal; null without an open card. */
  utilization: number | null;
  /** Months since the oldest account on file was opened; null on a file without accounts. */
  fileAgeMonths: number | null;
  /** Months since the latest payment 30 days late or worse in the 24-month payment record; null when none. */
  monthsSinceDelinquency: number | null;
  /** Whether any account ever had a late payment (what a rule longer than the 24-month record falls back on). */
  everLate: boolean;
  state: string | null;
  accounts: RefinanceableAccount[];
}

const LATE: ReadonlySet<PaymentStatus> = new Set(['30', '60', '90', '120', 'charge_off']);
const HISTORY_MONTHS = 24;

export const offerFactsOf = (
  file: CreditFile,
  asOf: Date,
  score: number,
  state: string | null,
  accountIdOf: (tradelineId: string) => string,
): OfferFacts => {
  const cards = file.tradelines.filter((t) => t.kind === 'credit_card' && t.closedOn === null && t.limitOrAmount > 0);
  const limit = cards.reduce((sum, t) => sum + t.limitOrAmount, 0);
  const balance = cards.reduce((sum, t) => sum + t.balance, 0);
  const opened = file.tradelines.map((t) => t.openedOn).sort()[0];
  let monthsSinceDelinquency: number | null = null;
  for (const t of file.tradelines) {
    const index = t.paymentHistory.findIndex((status) => LATE.has(status));
    if (index >= 0 && (monthsSinceDelinquency === null || index < monthsSinceDelinquency)) monthsSinceDelinquency = index;
  }
  return {
    score,
    utilization: limit > 0 ? Math.round((balance / limit) * 1000) / 10 : null,
    fileAgeMonths: opened ? monthsSince(opened, asOf) : null,
    monthsSinceDelinquency,
    everLate: file.tradelines.some((t) => t.latePayments > 0),
    state,
    accounts: refinanceableAccounts(file, asOf, accountIdOf),
  };
};

type Reason = TOfferQualification['reasons'][number];

const money = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;
const KIND_NAMES: Record<string, string> = {
  credit_card: 'credit card',
  auto_loan: 'auto loan',
  student_loan: 'student loan',
  mortgage: 'mortgage',
  personal_loan: 'personal loan',
};

const scoreReason = (rules: OfferBody['rules'], score: number): Reason | undefined => {
  const { minScore, maxScore } = rules;
  if (minScore === undefined && maxScore === undefined) return undefined;
  const met = (minScore === undefined || score >= minScore) && (maxScore === undefined || score <= maxScore);
  const required = minScore !== undefined && maxScore !== undefined ? `${minScore}-${maxScore}` : (minScore ?? maxScore ?? 0);
  const asks =
    minScore !== undefined && maxScore !== undefined
      ? `between ${minScore} and ${maxScore}`
      : minScore !== undefined
        ? `at least ${minScore}`
        : `at most ${maxScore}`;
  return { rule: 'score', met, actual: score, required, message: `Your score is ${score}; this offer asks for ${asks}.` };
};

/**
 * Accounts the offer could take over at `apr`: the rule's kinds, balance and APR margin, and what it would lend or
 * carry for the balance (fees included) within the tier's amount: no saving is shown on a loan the bank would not make.
 */
export const accountsToRefinance = (
  body: OfferBody,
  facts: OfferFacts,
  apr: number,
  limit: { min: number; max: number } | null | undefined,
): RefinanceableAccount[] => {
  const rule = body.rules.refinance;
  if (!rule) return [];
  const fees = {
    originationFeePercent: body.costs.originationFeePercent ?? 0,
    balanceTransferFeePercent: body.costs.balanceTransferFeePercent ?? 0,
  };
  return facts.accounts.filter((a) => {
    const financed = financedAmount(a.balance, fees);
    return (
      (rule.accountKinds as readonly string[]).includes(a.kind) &&
      a.balance >= (rule.minBalance ?? 0) &&
      a.apr > apr &&
      a.apr >= apr + (rule.minAprAbove ?? 0) &&
      (!limit || (financed >= limit.min && financed <= limit.max))
    );
  });
};

/** Whether the customer qualifies for the offer, why, and at what tier: against the rules in their order. */
export const qualify = (body: OfferBody, facts: OfferFacts): TOfferQualification => {
  const { rules } = body;
  const reasons: Reason[] = [];
  const score = scoreReason(rules, facts.score);
  if (score) reasons.push(score);
  if (rules.maxUtilization !== undefined) {
    const actual = facts.utilization;
    const met = actual === null || actual <= rules.maxUtilization;
    reasons.push({
      rule: 'utilization',
      met,
      actual,
      required: rules.maxUtilization,
      message:
        actual === null
          ? `You have no open credit card; this offer asks for card utilization of at most ${rules.maxUtilization}%.`
          : `Your card utilization is ${actual}%; this offer asks for at most ${rules.maxUtilization}%.`,
    });
  }
  if (rules.minFileAgeMonths !== undefined) {
    const actual = facts.fileAgeMonths;
    reasons.push({
      rule: 'file_age',
      met: actual !== null && actual >= rules.minFileAgeMonths,
      actual,
      required: rules.minFileAgeMonths,
      message: `Your oldest account is ${actual ?? 0} months old; this offer asks for at least ${rules.minFileAgeMonths}.`,
    });
  }
  if (rules.noDelinquencyMonths !== undefined) {
    const months = rules.noDelinquencyMonths;
    const actual = facts.monthsSinceDelinquency;
    const met = actual === null ? months <= HISTORY_MONTHS || !facts.everLate : actual >= months;
    reasons.push({
      rule: 'delinquency',
      met,
      actual,
      required: months,
      message: met
        ? `No late payment in the last ${months} months.`
        : `A payment was late ${actual ?? 'more than 24'} months ago; this offer asks for none in ${months} months.`,
    });
  }
  if (rules.states) {
    const met = facts.state !== null && (rules.states as readonly string[]).includes(facts.state);
    reasons.push({
      rule: 'state',
      met,
      actual: facts.state,
      required: rules.states.join(','),
      message: met ? `Offered in ${facts.state}.` : `This offer is available in ${rules.states.join(', ')} only.`,
    });
  }
  const tier = tierFor(body, facts.score);
  if (rules.refinance) {
    const candidates = tier ? accountsToRefinance(body, facts, tier.apr, tier.creditLimit) : [];
    const kinds = rules.refinance.accountKinds.map((k) => KIND_NAMES[k] ?? k).join(' or ');
    const floor = rules.refinance.minBalance ? ` with a balance of at least ${money(rules.refinance.minBalance)}` : '';
    reasons.push({
      rule: 'refinance',
      met: candidates.length > 0,
      actual: candidates.length,
      required: rules.refinance.accountKinds.join(','),
      message:
        candidates.length > 0
          ? `You have ${candidates.length === 1 ? 'an account' : `${candidates.length} accounts`} this offer could refinance at a lower rate.`
          : `This offer refinances an open ${kinds}${floor} at a rate above the offer’s; none is on your file.`,
    });
  }
  reasons.push({
    rule: 'tier',
    met: tier !== undefined,
    actual: facts.score,
    required: body.tiers.map((t) => `${t.minScore}-${t.maxScore}`).join(','),
    message: tier
      ? `Your rate band is scores ${tier.minScore}–${tier.maxScore}: ${tier.apr}% APR.`
      : 'This offer has no rate for your score.',
  });
  return {
    qualifies: reasons.every((r) => r.met),
    apr: tier?.apr ?? null,
    creditLimit: tier?.creditLimit ?? null,
    reasons,
  };
};

/** The best saving the offer gives on an account it could take over (largest drop in total cost, then payment). */
export const savingsOf = (body: OfferBody, facts: OfferFacts, qualification: TOfferQualification): TOfferSavings => {
  if (!qualification.qualifies || qualification.apr === null || !body.rules.refinance) return null;
  const apr = qualification.apr;
  const terms = {
    apr,
    termMonths: body.type === 'credit_card' ? null : body.termMonths,
    originationFeePercent: body.costs.originationFeePercent ?? 0,
    balanceTransferFeePercent: body.costs.balanceTransferFeePercent ?? 0,
    introApr: body.costs.introApr ?? null,
    annualFee: body.costs.annualFee ?? 0,
  };
  let best: { accountId: string; comparison: NonNullable<ReturnType<typeof compareRefinance>> } | undefined;
  for (const account of accountsToRefinance(body, facts, apr, qualification.creditLimit)) {
    const comparison = compareRefinance(account, terms);
    if (!comparison) continue;
    const better =
      !best ||
      comparison.totalCostChange < best.comparison.totalCostChange ||
      (comparison.totalCostChange === best.comparison.totalCostChange &&
        (comparison.monthlyChange < best.comparison.monthlyChange ||
          (comparison.monthlyChange === best.comparison.monthlyChange && account.accountId < best.accountId)));
    if (better) best = { accountId: account.accountId, comparison };
  }
  if (!best) return null;
  return { comparedToAccountId: best.accountId, offeredApr: apr, ...best.comparison };
};
