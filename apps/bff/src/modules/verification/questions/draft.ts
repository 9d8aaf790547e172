import type { SeededRandom } from '../../../lib/seeded-random.ts';

export const NONE_OF_THE_ABOVE = 'None of the above';

/** Four choices besides “None of the above”. */
export const CHOICES_PER_QUESTION = 4;

/**
 * One question before a session gives it ids: the text, its four choices in a canonical order
 * (so the order itself says nothing about which one is right) and the right one, or null when
 * the right answer is “None of the above”.
 */
export interface DraftQuestion {
  kind: 'past_address' | 'lender' | 'loan_amount' | 'opening_year';
  text: string;
  choices: string[];
  answer: string | null;
  /** Ranges and years read best in ascending order; names are shuffled per session. */
  ordered: boolean;
}

/** How often a question whose facts allow it is built so that “None of the above” is right. */
export const NONE_RIGHT_SHARE = 0.2;

export const wantsNoneRight = (rng: SeededRandom): boolean => rng.next() < NONE_RIGHT_SHARE;

/** Case- and space-insensitive key, so “Maple  St” and “maple st” are one street. */
export const normalise = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** Builds a draft, checking the invariants every kind must keep. */
export const draft = (question: Omit<DraftQuestion, 'choices'> & { choices: string[] }): DraftQuestion => {
  const keys = new Set(question.choices.map(normalise));
  if (question.choices.length !== CHOICES_PER_QUESTION || keys.size !== CHOICES_PER_QUESTION) {
    throw new Error(`a ${question.kind} question needs ${CHOICES_PER_QUESTION} distinct choices`);
  }
  if (question.answer !== null && !question.choices.includes(question.answer)) {
    throw new Error(`the answer of a ${question.kind} question must be one of its choices`);
  }
  const choices = question.ordered ? question.choices : [...question.choices].sort((a, b) => a.localeCompare(b));
  return { ...question, choices };
};

/**
 * Where a run of four adjacent slots (amount ranges, years) lies around the true slot `actual`.
 * Right: the true slot takes each of the four positions equally often. “None of the above”: the
 * run lies wholly above or wholly below it, equally often. Only use it where `runFits`, or runs
 * cut off at a bound would tell which case is which.
 */
export const placeRun = (actual: number, rng: SeededRandom): { first: number; noneRight: boolean } => {
  if (wantsNoneRight(rng)) {
    return { first: rng.next() < 0.5 ? actual + 1 : actual - CHOICES_PER_QUESTION, noneRight: true };
  }
  return { first: actual - rng.int(0, CHOICES_PER_QUESTION - 1), noneRight: false };
};

/** Whether every run `placeRun` may choose around `actual` stays within [min, max]. */
export const runFits = (actual: number, min: number, max: number): boolean =>
  actual - CHOICES_PER_QUESTION >= min && actual + CHOICES_PER_QUESTION <= max;
