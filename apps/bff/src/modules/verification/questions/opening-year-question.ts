import type { CreditFile, TradelineKind } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, placeRun, runFits } from './draft.ts';

const LABEL: Record<TradelineKind, string> = {
  credit_card: 'credit card',
  auto_loan: 'auto loan',
  student_loan: 'student loan',
  mortgage: 'mortgage',
  personal_loan: 'personal loan',
};

/** Years before this age are not plausible for opening an account, so no choice lies before it. */
const ADULT_AGE = 18;

/**
 * “In which year did you open your first credit card?” Four consecutive years from the file's
 * account history. Asked only where every placement of the run (right answer at any position, or
 * wholly above or below) stays between the year the person came of age and this year: a run
 * cut off by either bound would say where the answer is. The person's birth year is not asked
 * (the enroller supplies it), it only bounds the plausible years.
 */
export const openingYearQuestion = (file: CreditFile, birthYear: number, asOf: Date, rng: SeededRandom): DraftQuestion | null => {
  const kinds = [...new Set(file.tradelines.map((t) => t.kind))];
  const candidates = kinds.flatMap((kind) => {
    const accounts = file.tradelines.filter((t) => t.kind === kind);
    const year = Math.min(...accounts.map((t) => Number(t.openedOn.slice(0, 4))));
    const fits = Number.isInteger(year) && runFits(year, birthYear + ADULT_AGE, asOf.getUTCFullYear());
    return fits ? [{ kind, year, first: accounts.length > 1 }] : [];
  });
  if (candidates.length === 0) return null;
  const asked = rng.pick(candidates);
  const { first, noneRight } = placeRun(asked.year, rng);
  const years = Array.from({ length: CHOICES_PER_QUESTION }, (_, i) => String(first + i));
  return draft({
    kind: 'opening_year',
    text: `In which year did you open your ${asked.first ? 'first ' : ''}${LABEL[asked.kind]}?`,
    choices: years,
    answer: noneRight ? null : String(asked.year),
    ordered: true,
  });
};
