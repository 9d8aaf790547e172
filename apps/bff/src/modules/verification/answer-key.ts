import type { TVerificationAnswersInput } from '@credit/contract';
import type { DataCipher } from '../../security/encryption.ts';
import type { AnswerKey } from './questions/build-question-set.ts';

// Bound to the session's row: a key copied into another session fails to decrypt.
const keyContext = (sessionId: string) => `verification_sessions.answer_key:${sessionId}`;

export const sealAnswerKey = (cipher: DataCipher, sessionId: string, key: AnswerKey): string =>
  cipher.encrypt(JSON.stringify(key), keyContext(sessionId));

export const openAnswerKey = (cipher: DataCipher, sessionId: string, sealed: string): AnswerKey =>
  JSON.parse(cipher.decrypt(sealed, keyContext(sessionId))) as AnswerKey;

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
