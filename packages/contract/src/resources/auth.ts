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

export const ZUserTokenRequest = z
  .strictObject({
    userId: ZExternalUserId.meta({ description: 'Your own id for the user; matches `externalUserId` at enrolment.' }),
    email: ZEmail,
    firstName: ZPersonName,
    lastName: ZPersonName,
    phone: ZPhone.optional(),
    externalId: z.string().max(255).optional(),
  })
  .meta({ id: 'UserTokenRequest' });
export type TUserTokenRequest = z.infer<typeof ZUserTokenRequest>;

export const ZUserTokenResponse = z
  .object({
    userToken: z.string().startsWith('ut_').meta({ example: 'ut_sbx_3f9a…' }),
    expiresIn: z.number().int().meta({ example: 3600 }),
    expiresAt: ZTimestamp,
  })
  .meta({ id: 'UserToken' });
export type TUserTokenResponse = z.infer<typeof ZUserTokenResponse>;
