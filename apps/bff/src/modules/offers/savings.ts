import { amortizedPayment, paymentsMadeBy } from '../../bureau/amortization.ts';
import { isoDate } from '../../bureau/dates.ts';
import type { CreditFile, TradelineKind } from '../../bureau/provider.ts';

/** A card balance has no term: both sides compare paying it off over this many months. */
export const CARD_PAYOFF_MONTHS = 36;

/** An open account on the file that an offer could pay off and replace, with what a comparison is priced from. */
export interface RefinanceableAccount {
  /** The report's id for it (`acc_…`). */
  accountId: string;
  kind: TradelineKind;
  /** USD owed now. */
  balance: number;
  /** In percent. */
  apr: number;
  /** Loans: the term's months not yet paid (more than 0); cards: CARD_PAYOFF_MONTHS. */
  remainingMonths: number;
}

/**
 * The open accounts of a file that have what a refinance is priced from: a balance, an APR and, for a loan, a term
 * not yet run out as of `asOf`. `accountIdOf` names each the way the user's report does.
 */
export const refinanceableAccounts = (
  file: CreditFile,
  asOf: Date,
  accountIdOf: (tradelineId: string) => string,
): RefinanceableAccount[] => {
  const today = isoDate(asOf);
  return file.tradelines.flatMap((t): RefinanceableAccount[] => {
    if (t.status !== 'open' || t.closedOn !== null || t.apr === null || t.balance <= 0) return [];
    const account = { accountId: accountIdOf(t.id), kind: t.kind, balance: t.balance, apr: t.apr };
    if (t.kind === 'credit_card') return [{ ...account, remainingMonths: CARD_PAYOFF_MONTHS }];
    if (t.termMonths === null) return [];
    const remainingMonths = t.termMonths - paymentsMadeBy(t.openedOn, today);
    return remainingMonths > 0 ? [{ ...account, remainingMonths }] : [];
  });
};

/** What an offer would replace the account with. */
export interface RefinanceTerms {
  /** The customer's tier APR, in percent. */
  apr: number;
  /** The offer's own term for a loan or mortgage; null for a card, which is then paid off over CARD_PAYOFF_MONTHS. */
  termMonths: number | null;
  /** Percent of the amount borrowed, 0 when none; financed, so the proceeds still pay off the whole balance. */
  originationFeePercent: number;
  /** Percent of the balance moved, 0 when none; added to the moved balance. */
  balanceTransferFeePercent: number;
  /** A rate for the first `months` months, then `apr`. */
  introApr: { apr: number; months: number } | null;
  /** USD a year, charged once per started year of the term. */
  annualFee: number;
}

export type RefinanceVerdict = 'lower_payment_and_cost' | 'lower_cost_higher_payment' | 'lower_payment_higher_cost';

/** Keeping the account against moving it to the offer, in USD rounded to cents; changes are offer minus current. */
export interface RefinanceComparison {
  /** The level payment of the balance over the months left at the account's APR (not the lender's reported payment). */
  currentMonthlyPayment: number;
  currentRemainingMonths: number;
  currentTotalCost: number;
  /** The level payment that repays the financed amount over the offer's term, intro months included. */
  offerMonthlyPayment: number;
  offerTermMonths: number;
  /** Every payment of the offer's term plus its annual fees (a financed fee is inside the payments). */
  offerTotalCost: number;
  /** The origination or transfer fee plus the annual fees over the term. */
  fees: number;
  /** Negative when the payment goes down. */
  monthlyChange: number;
  /** Negative when the total cost goes down. */
  totalCostChange: number;
  verdict: RefinanceVerdict;
}

/** A saving smaller than this is no saving. */
const LEAST_SAVING = 1;

const round2 = (value: number) => Math.round(value * 100) / 100;

const requireMonths = (name: string, months: number) => {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`${name} must be a whole number of months, at least 1`);
};
const requireFeePercent = (name: string, percent: number) => {
  if (!(percent >= 0 && percent < 100)) throw new RangeError(`${name} must be from 0 to under 100 percent`);
};

/**
 * The level payment that repays `principal` over `months` when the first `introMonths` run at `introAprPercent` and
 * the rest at `aprPercent`: after the intro months the balance left must be the rest's level-payment present value.
 */
const levelPayment = (
  principal: number,
  aprPercent: number,
  months: number,
  intro: { apr: number; months: number } | null,
): number => {
  const introMonths = intro === null ? 0 : Math.min(intro.months, months);
  if (intro === null || introMonths === 0) return amortizedPayment(principal, aprPercent, months);
  if (introMonths === months) return amortizedPayment(principal, intro.apr, months);
  const introRate = intro.apr / 1200;
  const introGrowth = (1 + introRate) ** introMonths;
  const introSum = introRate === 0 ? introMonths : (introGrowth - 1) / introRate;
  const rest = amortizedPayment(1, aprPercent, months - introMonths);
  return (principal * introGrowth * rest) / (1 + rest * introSum);
};

/**
 * The account kept to its end against the balance moved to the offer, or null when neither the monthly payment nor the
 * total cost goes down by at least $1: no saving exists, so none is claimed. Each figure is rounded on its own from
 * the exact payments, so no claim rests on rounding; the changes are the rounded figures' differences.
 */
/** What the offer would lend or carry to take over `balance`: fees taken from the loan, or added to the balance. */
export const financedAmount = (
  balance: number,
  terms: Pick<RefinanceTerms, 'originationFeePercent' | 'balanceTransferFeePercent'>,
): number => (balance / (1 - terms.originationFeePercent / 100)) * (1 + terms.balanceTransferFeePercent / 100);

export const compareRefinance = (account: RefinanceableAccount, terms: RefinanceTerms): RefinanceComparison | null => {
  requireMonths('remainingMonths', account.remainingMonths);
  const offerTermMonths = terms.termMonths ?? CARD_PAYOFF_MONTHS;
  requireMonths('termMonths', offerTermMonths);
  requireFeePercent('originationFeePercent', terms.originationFeePercent);
  requireFeePercent('balanceTransferFeePercent', terms.balanceTransferFeePercent);
  if (terms.introApr !== null && !(Number.isInteger(terms.introApr.months) && terms.introApr.months >= 0)) {
    throw new RangeError('introApr.months must be a whole number of months, 0 or more');
  }

  const current = amortizedPayment(account.balance, account.apr, account.remainingMonths);
  const financed = financedAmount(account.balance, terms);
  const offer = levelPayment(financed, terms.apr, offerTermMonths, terms.introApr);
  const annualFees = terms.annualFee * Math.ceil(offerTermMonths / 12);

  const currentMonthlyPayment = round2(current);
  const currentTotalCost = round2(current * account.remainingMonths);
  const offerMonthlyPayment = round2(offer);
  const offerTotalCost = round2(offer * offerTermMonths + annualFees);
  const monthlyChange = round2(offerMonthlyPayment - currentMonthlyPayment);
  const totalCostChange = round2(offerTotalCost - currentTotalCost);

  const lowerPayment = monthlyChange <= -LEAST_SAVING;
  const lowerCost = totalCostChange <= -LEAST_SAVING;
  if (!lowerPayment && !lowerCost) return null;
  return {
    currentMonthlyPayment,
    currentRemainingMonths: account.remainingMonths,
    currentTotalCost,
    offerMonthlyPayment,
    offerTermMonths,
    offerTotalCost,
    fees: round2(financed - account.balance + annualFees),
    monthlyChange,
    totalCostChange,
    verdict:
      lowerPayment && lowerCost
        ? 'lower_payment_and_cost'
        : lowerCost
          ? 'lower_cost_higher_payment'
          : 'lower_payment_higher_cost',
  };
};
