import type { CreditSubject } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, wantsNoneRight } from './draft.ts';

/**
 * “In which year were you born?” Four consecutive years. When the birth year is among them its
 * place in the run is uniform; otherwise the run lies wholly above or below it, never with a gap
 * that would point at the missing year.
 */
export const birthYearQuestion = (subject: CreditSubject, rng: SeededRandom): DraftQuestion => {
  const year = Number(subject.dateOfBirth.slice(0, 4));
  const noneRight = wantsNoneRight(rng);
  const first = noneRight
    ? rng.next() < 0.5
      ? year + 1
      : year - CHOICES_PER_QUESTION
    : year - rng.int(0, CHOICES_PER_QUESTION - 1);
  const years = Array.from({ length: CHOICES_PER_QUESTION }, (_, i) => String(first + i));
  return draft({
    kind: 'birth_year',
    text: 'In which year were you born?',
    choices: years,
    answer: noneRight ? null : String(year),
    ordered: true,
  });
};
