import type { CreditFile, Tradeline, TradelineKind } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, placeRun, runFits } from './draft.ts';

/** Width of one amount range per kind: narrow enough to be a real test, wide enough to remember. */
const RANGE_WIDTH: Record<TradelineKind, number> = {
  credit_card: 500,
  auto_loan: 2_000,
  student_loan: 1_000,
  personal_loan: 500,
  mortgage: 25_000,
};

const LATEST_CARD_QUESTION = 'What is the credit limit of your most recently opened credit card?';
const QUESTION: Record<TradelineKind, string> = {
  credit_card: 'What was the credit limit of your first credit card?',
  auto_loan: 'What was the original amount of your auto loan?',
  student_loan: 'What was the original amount of your student loan?',
  personal_loan: 'What was the original amount of your personal loan?',
  mortgage: 'What was the original amount of your mortgage?',
};

const dollars = (amount: number) => `$${amount.toLocaleString('en-US')}`;

/** Range `index` of width `width`: [index·width, (index+1)·width − 1] whole dollars. */
const rangeLabel = (index: number, width: number) => `${dollars(index * width)} – ${dollars((index + 1) * width - 1)}`;

/** The range index of an account's original amount or limit. */
const rangeOf = (account: Tradeline) => Math.floor(Math.round(account.limitOrAmount) / RANGE_WIDTH[account.kind]);

/** The one card opened first or last, or none when another card shares that day. */
const soleCard = (cards: Tradeline[], pick: 'first' | 'last') => {
  const sorted = [...cards].sort((a, b) => a.openedOn.localeCompare(b.openedOn));
  const card = pick === 'first' ? sorted[0] : sorted.at(-1);
  return card && cards.filter((c) => c.openedOn === card.openedOn).length === 1 ? card : undefined;
};

interface Nameable {
  account: Tradeline;
  text: string;
}

/**
 * The accounts the question text names unambiguously: the only loan of its kind (“your auto
 * loan”), and the credit cards opened first and most recently, each alone on its day.
 */
const nameableAccounts = (file: CreditFile): Nameable[] => {
  const withAmount = file.tradelines.filter((t) => t.limitOrAmount > 0);
  const loans = withAmount.filter((t) => t.kind !== 'credit_card');
  const singleLoans = loans.filter((t) => loans.filter((other) => other.kind === t.kind).length === 1);
  const cards = withAmount.filter((t) => t.kind === 'credit_card');
  const first = soleCard(cards, 'first');
  const last = cards.length > 1 ? soleCard(cards, 'last') : undefined;
  return [
    ...singleLoans.map((account) => ({ account, text: QUESTION[account.kind] })),
    ...(first ? [{ account: first, text: QUESTION.credit_card }] : []),
    ...(last ? [{ account: last, text: LATEST_CARD_QUESTION }] : []),
  ];
};

/**
 * “What was the original amount of your auto loan?” Four adjacent, closed, non-overlapping ranges,
 * so exactly one can hold the amount (or none: then the ranges lie wholly above or below it). The
 * lender is never named, as it could answer the lender question. Only amounts high enough that
 * every placement of the ranges stays above $0 are asked (range 0 is never shown): a run cut off
 * at the bottom would make low positions likelier and “None of the above” impossible.
 */
const amountQuestion = ({ account, text }: Nameable, rng: SeededRandom): DraftQuestion => {
  const width = RANGE_WIDTH[account.kind];
  const actual = rangeOf(account);
  const { first, noneRight } = placeRun(actual, rng);
  const ranges = Array.from({ length: CHOICES_PER_QUESTION }, (_, i) => first + i);
  return draft({
    kind: 'loan_amount',
    text,
    choices: ranges.map((index) => rangeLabel(index, width)),
    answer: noneRight ? null : rangeLabel(actual, width),
    ordered: true,
  });
};

/** Up to two such questions, about different accounts, for the set to choose from. */
export const loanAmountQuestions = (file: CreditFile, rng: SeededRandom): DraftQuestion[] => {
  const askable = nameableAccounts(file).filter((n) => runFits(rangeOf(n.account), 1, Number.MAX_SAFE_INTEGER));
  return rng.sample(askable, 2).map((n) => amountQuestion(n, rng));
};
