import { ZTimestamp, ZUserId, ZVerificationSessionId } from '../common.ts';
import { z } from '../zod.ts';

export const QUESTIONS_PER_SESSION = 3;
export const OPTIONS_PER_QUESTION = 5;
/** Failed sessions within 24 h that lock verification for 24 h. */
export const MAX_FAILED_SESSIONS = 3;

const answerRef = (example: string) => z.string().min(1, 'must not be empty').max(64).meta({ example });

export const ZVerificationOption = z
  .object({ id: answerRef('q1_c'), text: z.string().meta({ example: 'Contoso Auto Finance' }) })
  .meta({ id: 'VerificationOption' });

export const ZVerificationQuestion = z
  .object({
    questionId: answerRef('q1'),
    text: z.string().meta({ example: 'Which of these lenders gave you an auto loan?' }),
    options: z
      .array(ZVerificationOption)
      .length(OPTIONS_PER_QUESTION)
      .meta({
        description: `${OPTIONS_PER_QUESTION} choices; the last is “None of the above”.`,
      }),
  })
  .meta({ id: 'VerificationQuestion' });

export const ZVerificationSession = z
  .object({
    sessionId: ZVerificationSessionId,
    questions: z.array(ZVerificationQuestion).length(QUESTIONS_PER_SESSION),
    expiresAt: ZTimestamp.meta({ description: 'Answers must arrive before this instant (10 minutes after creation).' }),
  })
  .meta({ id: 'VerificationSession' });
export type TVerificationSession = z.infer<typeof ZVerificationSession>;

export const ZVerificationAnswer = z
  .strictObject({ questionId: answerRef('q1'), answerId: answerRef('q1_c') })
  .meta({ id: 'VerificationAnswer' });

export const ZVerificationAnswersInput = z
  .strictObject({
    sessionId: ZVerificationSessionId,
    answers: z
      .array(ZVerificationAnswer)
      .min(1, 'must contain at least one answer')
      .max(10, 'must contain at most 10 answers')
      .meta({ description: 'One answer per question of the session; a missing answer counts as wrong.' }),
  })
  .meta({ id: 'VerificationAnswersInput' });
export type TVerificationAnswersInput = z.infer<typeof ZVerificationAnswersInput>;

export const ZVerificationResult = z
  .object({
    verified: z.boolean().meta({ description: 'True when every answer was right; the user is then `active`.' }),
    userId: ZUserId,
    verifiedAt: ZTimestamp.nullable().meta({ description: 'When the user passed; null when `verified` is false.' }),
    attemptsRemaining: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({
        description: `On a failure: failed sessions left before verification locks (${MAX_FAILED_SESSIONS} in 24 h).`,
        example: 2,
      }),
    unlocksAt: ZTimestamp.nullable().optional().meta({
      description: 'On the failure that locks verification: when it opens again (24 h after the last failure).',
    }),
  })
  .meta({ id: 'VerificationResult' });
export type TVerificationResult = z.infer<typeof ZVerificationResult>;
