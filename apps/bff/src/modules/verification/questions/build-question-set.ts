import { QUESTIONS_PER_SESSION, type TVerificationSession } from '@credit/contract';
import type { CreditFile, CreditSubject } from '../../../bureau/provider.ts';
import { SeededRandom } from '../../../lib/seeded-random.ts';
import { addressQuestion } from './address-question.ts';
import { birthYearQuestion } from './birth-year-question.ts';
import { type DraftQuestion, NONE_OF_THE_ABOVE } from './draft.ts';
import { lenderQuestion } from './lender-question.ts';
import { loanAmountQuestion } from './loan-amount-question.ts';

export type PublicQuestion = TVerificationSession['questions'][number];
/** questionId → the id of its right option. */
export type AnswerKey = Record<string, string>;

export interface QuestionSet {
  questions: PublicQuestion[];
  answerKey: AnswerKey;
}

/**
 * What to ask this person: the same three questions with the same choices every time (seeded by
 * `contentSeed`, stable per user). If each session drew fresh decoys, the right answer would be the
 * one choice that keeps coming back, and fetching a few sessions would reveal it.
 */
export const draftQuestions = (file: CreditFile, subject: CreditSubject, contentSeed: string): DraftQuestion[] => {
  const rng = new SeededRandom(`verification-content:v1:${contentSeed}`);
  // Every builder draws in a fixed order, so one kind's draws never shift another's.
  const loan = loanAmountQuestion(file, rng);
  const candidates = [
    addressQuestion(file, subject, rng),
    lenderQuestion(file, rng, loan?.kind),
    loan?.question ?? null,
    birthYearQuestion(subject, rng),
  ].filter((q): q is DraftQuestion => q !== null);
  if (candidates.length < QUESTIONS_PER_SESSION) throw new Error('not enough facts in the file for a question set');
  return rng.sample(candidates, QUESTIONS_PER_SESSION);
};

const optionId = (questionId: string, rng: SeededRandom) => `${questionId}_${rng.int(0, 0xffffff).toString(16).padStart(6, '0')}`;

/**
 * Gives the drafted questions this session's face: question order, option order (names shuffled,
 * ranges and years kept ascending) and opaque option ids, all from `sessionSeed`. “None of the
 * above” is always last.
 */
export const presentQuestions = (drafts: DraftQuestion[], sessionSeed: string): QuestionSet => {
  const rng = new SeededRandom(`verification-session:v1:${sessionSeed}`);
  const answerKey: AnswerKey = {};
  const questions = rng.shuffle(drafts).map((q, index): PublicQuestion => {
    const questionId = `q${index + 1}`;
    const texts = [...(q.ordered ? q.choices : rng.shuffle(q.choices)), NONE_OF_THE_ABOVE];
    const ids = new Set<string>();
    const options = texts.map((text) => {
      let id = optionId(questionId, rng);
      while (ids.has(id)) id = optionId(questionId, rng);
      ids.add(id);
      return { id, text };
    });
    const right = options.find((o) => o.text === (q.answer ?? NONE_OF_THE_ABOVE));
    if (!right) throw new Error('a question lost its right option');
    answerKey[questionId] = right.id;
    return { questionId, text: q.text, options };
  });
  return { questions, answerKey };
};

export const buildQuestionSet = (input: {
  file: CreditFile;
  subject: CreditSubject;
  contentSeed: string;
  sessionSeed: string;
}): QuestionSet => presentQuestions(draftQuestions(input.file, input.subject, input.contentSeed), input.sessionSeed);
