import { ZClickId, ZOfferId, ZTimestamp, ZUserId, ZVerificationSessionId } from '../common.ts';
import { z } from '../zod.ts';
import { ZAlertType } from './alerts.ts';
import { SCORE_MAX, SCORE_MIN, ZCreditScore, ZScoreValue } from './credit.ts';
import { ZVerificationAnswer } from './verification.ts';

export const ZSandboxScoreRefreshInput = z
  .strictObject({
    score: z
      .number()
      .int('must be a whole number')
      .min(SCORE_MIN, `must be between ${SCORE_MIN} and ${SCORE_MAX}`)
      .max(SCORE_MAX, `must be between ${SCORE_MIN} and ${SCORE_MAX}`)
      .optional()
      .meta({ description: 'The new score; omitted → the next score of the user’s synthetic file.', example: 742 }),
  })
  .meta({ id: 'SandboxScoreRefreshInput' });
export type TSandboxScoreRefreshInput = z.infer<typeof ZSandboxScoreRefreshInput>;

export const ZSandboxScoreRefreshResult = ZCreditScore.extend({
  previousScore: ZScoreValue.nullable().meta({ description: 'The score before the refresh; null if there was none.' }),
}).meta({ id: 'SandboxScoreRefreshResult' });
export type TSandboxScoreRefreshResult = z.infer<typeof ZSandboxScoreRefreshResult>;

export const ZSandboxCreateAlertInput = z.strictObject({ type: ZAlertType }).meta({ id: 'SandboxCreateAlertInput' });
export type TSandboxCreateAlertInput = z.infer<typeof ZSandboxCreateAlertInput>;

export const ZSandboxConversion = z
  .object({
    userId: ZUserId,
    offerId: ZOfferId,
    clickId: ZClickId.meta({
      description: 'The user’s latest click on this offer, which the conversion is credited to.',
    }),
    convertedAt: ZTimestamp,
  })
  .meta({ id: 'SandboxConversion' });
export type TSandboxConversion = z.infer<typeof ZSandboxConversion>;

export const ZSandboxVerificationAnswersQuery = z.strictObject({ sessionId: ZVerificationSessionId });
export type TSandboxVerificationAnswersQuery = z.infer<typeof ZSandboxVerificationAnswersQuery>;

export const ZSandboxVerificationAnswers = z
  .object({ sessionId: ZVerificationSessionId, answers: z.array(ZVerificationAnswer) })
  .meta({
    id: 'SandboxVerificationAnswers',
    description: 'The right answer to each question; the body can be sent as is to `POST …/verification/answers`.',
  });
export type TSandboxVerificationAnswers = z.infer<typeof ZSandboxVerificationAnswers>;
