import { ZTimestamp } from '../common.ts';
import { SCOPES } from '../operation.ts';
import { z } from '../zod.ts';
import { ZEmail, ZExternalUserId, ZPersonName, ZPhone } from './users.ts';

export const ZScope = z.enum(SCOPES).meta({ id: 'Scope' });

/** Form fields of `POST /oauth/token`; credentials may come from Basic auth instead. */
export const ZTokenRequest = z
  .object({
    grant_type: z.string().meta({ example: 'client_credentials' }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional().meta({ description: 'Space-separated scopes; omitted → every scope of the client.' }),
  })
  .meta({ id: 'TokenRequest' });

export const ZTokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ example: 3600 }),
    scope: z.string().meta({ example: 'read write offers webhooks' }),
  })
  .meta({ id: 'TokenResponse' });
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

/**
 * Who the token is for: `externalUserId`, the bank's own id for the customer (the `externalUserId` of enrolment, not
 * the API's `usr_…`). `userId` is its first name, still taken: one of the two, or both holding the same id.
 */
export const ZUserTokenRequest = z
  .strictObject({
    externalUserId: ZExternalUserId.optional().meta({
      description:
        'Your own id for the user: the `externalUserId` you enrolled them with (not the API’s `usr_…` id). Required, unless the deprecated `userId` holds it.',
    }),
    userId: ZExternalUserId.optional().meta({
      description:
        'Deprecated: `externalUserId` under its first name. Send `externalUserId`; if both are sent, they must be equal.',
      deprecated: true,
    }),
    email: ZEmail,
    firstName: ZPersonName,
    lastName: ZPersonName,
    phone: ZPhone.optional(),
    externalId: z.string().max(255).optional(),
  })
  // Run even when another field is invalid (the object itself parsed), so one answer names every field to fix.
  .refine((input) => input.externalUserId !== undefined || input.userId !== undefined, {
    path: ['externalUserId'],
    message: 'is required: your own id for the user, the externalUserId you enrolled them with',
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .refine((input) => input.externalUserId === undefined || input.userId === undefined || input.externalUserId === input.userId, {
    path: ['userId'],
    message: 'differs from externalUserId: userId is its deprecated name; send externalUserId alone',
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .meta({ id: 'UserTokenRequest' });
/** The customer a user token request is for: `externalUserId`, or the deprecated `userId` holding it. */
export const externalUserIdOf = (request: TUserTokenRequest): string => (request.externalUserId ?? request.userId) as string;
export type TUserTokenRequest = z.infer<typeof ZUserTokenRequest>;

export const ZUserTokenResponse = z
  .object({
    userToken: z.string().startsWith('ut_').meta({ example: 'ut_sbx_3f9a…' }),
    expiresIn: z.number().int().meta({ example: 3600 }),
    expiresAt: ZTimestamp,
  })
  .meta({ id: 'UserToken' });
export type TUserTokenResponse = z.infer<typeof ZUserTokenResponse>;
