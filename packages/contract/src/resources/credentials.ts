import { ZTimestamp } from '../common.ts';
import { z } from '../zod.ts';

/** The longest overlap a rotation may leave the previous secret: a week. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;
/** The overlap when a rotation names none: a day, long enough to roll a deployment over. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;

export const ZRotateClientSecretInput = z
  .strictObject({
    overlapSeconds: z
      .number('must be a number of seconds')
      .int('must be a whole number of seconds')
      .min(0, `must be between 0 and ${MAX_SECRET_OVERLAP_SECONDS} (7 days)`)
      .max(MAX_SECRET_OVERLAP_SECONDS, `must be between 0 and ${MAX_SECRET_OVERLAP_SECONDS} (7 days)`)
      .default(DEFAULT_SECRET_OVERLAP_SECONDS)
      .meta({
        description:
          'How long the current secret keeps minting tokens beside the new one, 0 to 604800 (7 days); 86400 (a day) ' +
          'when omitted. 0 ends it now, and with it every token and console session of yours but the caller’s own ' +
          'console session: what to do when a secret has leaked.',
        example: 86_400,
      }),
  })
  .meta({ id: 'RotateClientSecretInput' });
export type TRotateClientSecretInput = z.infer<typeof ZRotateClientSecretInput>;

const ZPreviousSecret = z
  .object({
    expiresAt: ZTimestamp.meta({
      description: 'Until then the previous secret still mints tokens (each ending by then); afterwards it opens nothing.',
    }),
  })
  .meta({ id: 'PreviousClientSecret' });

export const ZClientCredentials = z
  .object({
    clientId: z
      .string()
      .meta({ description: 'Your client id: `client_id` at `POST /oauth/token`.', example: 'cli_sbx_4Fh8Kq2Lm9Xz4Pw7' }),
    secretCreatedAt: ZTimestamp.meta({
      description: 'When the current secret was created (the client’s creation, or its last rotation).',
    }),
    previousSecret: ZPreviousSecret.nullable().meta({
      description: 'The secret before the last rotation while it is still valid; null when only the current one is.',
    }),
  })
  .meta({
    id: 'ClientCredentials',
    description: 'The state of your credentials. Never a secret nor its hash: secrets are shown once, at creation or rotation.',
  });
export type TClientCredentials = z.infer<typeof ZClientCredentials>;

export const ZClientSecretRotation = z
  .object({
    clientId: z.string().meta({ example: 'cli_sbx_4Fh8Kq2Lm9Xz4Pw7' }),
    secret: z.string().meta({
      description: 'The new client secret, answered this once and stored only as a hash: keep it in your secret store now.',
      example: 'sk_8Hn2Wq5Er7Ty9Ui1Op3As6Df8Gh0Jk2Lz4Xc6Vb8Nm1Qw3E',
    }),
    secretCreatedAt: ZTimestamp,
    previousSecretExpiresAt: ZTimestamp.meta({
      description: 'Until then the previous secret still mints tokens; now, when the rotation asked for no overlap.',
    }),
  })
  .meta({ id: 'ClientSecretRotation' });
export type TClientSecretRotation = z.infer<typeof ZClientSecretRotation>;
