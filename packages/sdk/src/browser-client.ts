import type { CustomAuthOptions } from './base-client.ts';
import { BaseCreditClient } from './base-client.ts';
import type { UserTokenOperationId } from './operations.ts';
import { USER_TOKEN_ROUTES } from './routes.generated.ts';

/**
 * The client for pages and apps: the operations a user token may call, with credentials from a `CreditAuth`
 * (`bearerAuth` for a user token, or your own, such as the widget's cookie session). No zod: success bodies
 * are not validated here (the server entry does that).
 */
export class CreditClient extends BaseCreditClient<UserTokenOperationId> {
  constructor(options: CustomAuthOptions) {
    super(USER_TOKEN_ROUTES, options);
  }
}
