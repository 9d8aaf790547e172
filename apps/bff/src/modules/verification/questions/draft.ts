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
  kind: 'past_address' | 'lender' | 'loan_amount' | 'birth_year';
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
