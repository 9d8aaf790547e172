import { QUESTIONS_PER_SESSION, type TVerificationSession } from '@credit/contract';
import type { CreditFile, CreditSubject } from '../../../bureau/provider.ts';
import { ApiError } from '../../../core/api-error.ts';
import { SeededRandom } from '../../../lib/seeded-random.ts';
import { addressQuestion } from './address-question.ts';
import { type DraftQuestion, NONE_OF_THE_ABOVE } from './draft.ts';
import { lenderQuestion } from './lender-question.ts';
import { loanAmountQuestions } from './loan-amount-question.ts';
import { openingYearQuestion } from './opening-year-question.ts';

export type PublicQuestion = TVerificationSession['questions'][number];
/** questionId → the id of its right option. */
export type AnswerKey = Record<string, string>;

export interface QuestionSet {
  questions: PublicQuestion[];
  answerKey: AnswerKey;
}

const notEnoughHistory = () =>
  new ApiError(
    'SERVICE_UNAVAILABLE',
    'This credit file has too little history to build verification questions; verify this user another way.',
  );

/**
 * What to ask this person: the same three questions with the same choices every time (seeded by
 * `contentSeed`, stable per identity, whichever enrolment or client asks). If sessions drew fresh
 * decoys, the right answer would be the one choice that keeps coming back, and fetching a few
 * sessions, or enrolling the same person twice, would reveal it. So the content depends on the
 * file and the seed only, never on enrolment data an enroller could vary.
 */
export const draftQuestions = (file: CreditFile, subject: CreditSubject, contentSeed: string, asOf: Date): DraftQuestion[] => {
  const rng = new SeededRandom(`verification-content:v2:${contentSeed}`);
  // Every builder draws in a fixed order, so one kind's draws never shift another's.
  const lender = lenderQuestion(file, rng);
  const amounts = loanAmountQuestions(file, rng);
  const opened = openingYearQuestion(file, Number(subject.dateOfBirth.slice(0, 4)), asOf, rng);
  const candidates = [addressQuestion(file, rng), lender, ...amounts, opened].filter(
    (q): q is DraftQuestion => q !== null && q !== undefined,
  );
  if (candidates.length < QUESTIONS_PER_SESSION) throw notEnoughHistory();
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
  asOf: Date;
}): QuestionSet => presentQuestions(draftQuestions(input.file, input.subject, input.contentSeed, input.asOf), input.sessionSeed);
