import type { CreditFile, Tradeline, TradelineKind } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, wantsNoneRight } from './draft.ts';

type InstallmentKind = Exclude<TradelineKind, 'credit_card'>;

/** Width of one amount range per kind: narrow enough to be a real test, wide enough to remember. */
const RANGE_WIDTH: Record<InstallmentKind, number> = {
  auto_loan: 5_000,
  student_loan: 5_000,
  personal_loan: 2_500,
  mortgage: 50_000,
};

const LABEL: Record<InstallmentKind, string> = {
  auto_loan: 'auto loan',
  student_loan: 'student loan',
  personal_loan: 'personal loan',
  mortgage: 'mortgage',
};

const dollars = (amount: number) => `$${amount.toLocaleString('en-US')}`;

/** Range `index` of width `width`: [index·width, (index+1)·width − 1] whole dollars. */
const rangeLabel = (index: number, width: number) =>
  index === 0 ? `Less than ${dollars(width)}` : `${dollars(index * width)} – ${dollars((index + 1) * width - 1)}`;

const isInstallment = (t: Tradeline): t is Tradeline & { kind: InstallmentKind } => t.kind !== 'credit_card';

/**
 * “What was the original amount of your auto loan?” Four adjacent, non-overlapping ranges, so
 * exactly one can hold the amount (or none: then the ranges lie wholly above or below it). Only
 * kinds the file holds exactly once are asked, so “your auto loan” names one account; the lender
 * is never named, as it could answer the lender question.
 */
export const loanAmountQuestion = (
  file: CreditFile,
  rng: SeededRandom,
): { question: DraftQuestion; kind: InstallmentKind } | null => {
  const loans = file.tradelines.filter(isInstallment).filter((t) => t.limitOrAmount > 0);
  const single = loans.filter((t) => loans.filter((other) => other.kind === t.kind).length === 1);
  if (single.length === 0) return null;
  const loan = rng.pick(single);
  const width = RANGE_WIDTH[loan.kind];
  const actual = Math.floor(Math.round(loan.limitOrAmount) / width);
  const noneRight = wantsNoneRight(rng);
  let first: number;
  if (noneRight) {
    const below = actual >= CHOICES_PER_QUESTION && rng.next() < 0.5;
    first = below ? actual - CHOICES_PER_QUESTION : actual + 1;
  } else {
    first = Math.max(0, actual - rng.int(0, CHOICES_PER_QUESTION - 1));
  }
  const ranges = Array.from({ length: CHOICES_PER_QUESTION }, (_, i) => first + i);
  const question = draft({
    kind: 'loan_amount',
    text: `What was the original amount of your ${LABEL[loan.kind]}?`,
    choices: ranges.map((index) => rangeLabel(index, width)),
    answer: noneRight ? null : rangeLabel(actual, width),
    ordered: true,
  });
  return { question, kind: loan.kind };
};
