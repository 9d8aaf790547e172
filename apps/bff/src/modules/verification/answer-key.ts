import type { TVerificationAnswersInput } from '@credit/contract';
import type { DataCipher } from '../../security/encryption.ts';
import type { AnswerKey, QuestionSet } from './questions/build-question-set.ts';

// Bound to the session's row: a key copied into another session fails to decrypt.
const keyContext = (sessionId: string) => `verification_sessions.answer_key:${sessionId}`;

/** A session's sealed content; `questions` is absent from sessions sealed before they were handed out again. */
export interface SealedSession {
  answerKey: AnswerKey;
  questions?: QuestionSet['questions'];
}

/**
 * Seals the answer key with the questions as asked, in the key's column: the questions name the same lenders and
 * addresses as the key (and list its right options), so they are kept as it is, and asking again needs no bureau call.
 */
export const sealSession = (cipher: DataCipher, sessionId: string, set: QuestionSet): string =>
  cipher.encrypt(JSON.stringify({ answerKey: set.answerKey, questions: set.questions }), keyContext(sessionId));

export const openSession = (cipher: DataCipher, sessionId: string, sealed: string): SealedSession => {
  const content = JSON.parse(cipher.decrypt(sealed, keyContext(sessionId))) as Record<string, unknown>;
  // Older rows hold the bare key (question ids → option ids), never an `answerKey` field.
  if (typeof content.answerKey === 'object' && content.answerKey !== null) return content as unknown as SealedSession;
  return { answerKey: content as AnswerKey };
};

export const openAnswerKey = (cipher: DataCipher, sessionId: string, sealed: string): AnswerKey =>
  openSession(cipher, sessionId, sealed).answerKey;

/**
 * Right only when every question has exactly one answer and it is the right one. An answer to a
 * question the session does not have, or two answers to one question, make the whole set wrong:
 * otherwise sending every option at once would pass.
 */
export const allAnswersRight = (key: AnswerKey, answers: TVerificationAnswersInput['answers']): boolean => {
  const questionIds = Object.keys(key);
  if (answers.length !== questionIds.length) return false;
  const given = new Map(answers.map((a) => [a.questionId, a.answerId]));
  return given.size === questionIds.length && questionIds.every((id) => given.get(id) === key[id]);
};
