import type { TTokenResponse, TUserTokenRequest, TUserTokenResponse } from '@credit/contract';
import { ClientCredentialsAuth, DEFAULT_RENEWAL_MARGIN_MS } from './access-token.ts';
import { BaseCreditClient, type CommonOptions, type CustomAuthOptions } from './base-client.ts';
import { oauthErrorOf } from './oauth-error.ts';
import type { CallArgs, CallOptions, OperationId } from './operations.ts';
import type { ResponseValidator } from './response.ts';
import { INTERNAL_ROUTES, SERVER_ROUTES, USER_TOKEN_ROUTES } from './routes.generated.ts';
import { validateWithContract } from './validate.ts';

const PUBLIC_ROUTES: Record<OperationId, string> = { ...USER_TOKEN_ROUTES, ...SERVER_ROUTES };

export type { CustomAuthOptions } from './base-client.ts';

interface ServerOptions extends CommonOptions {
  /** Check every success body against the contract's schema. Default: on unless NODE_ENV is `production`. */
  validateResponses?: boolean | undefined;
}

/** A partner's server: client credentials, exchanged for access tokens as needed. Keep them off browsers. */
export interface ClientCredentialsOptions extends ServerOptions {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for; every scope of the client when omitted. */
  scope?: string | undefined;
  /** Renew the access token this long before it expires. Default 60 s. */
  tokenRenewalMarginMs?: number | undefined;
  auth?: never;
}

export type CreditClientOptions = ClientCredentialsOptions | (CustomAuthOptions & ServerOptions);

type UserClaims = Omit<TUserTokenRequest, 'externalUserId' | 'userId'>;

/**
 * Whom `mintUserToken` mints for: `externalUserId`, your own id for the customer (the `externalUserId` of
 * `enrollUser`), and the name and e-mail the widget shows.
 */
export type MintUserTokenInput = UserClaims &
  (
    | { externalUserId: string /** @deprecated The same as `externalUserId`, its first name. */; userId?: string | undefined }
    | {
        /**
         * @deprecated Pass `externalUserId`: this is your own id for the customer, not the API's `usr_…` userId. Still
         * taken; given with a different `externalUserId`, `mintUserToken` throws.
         */
        userId: string;
        externalUserId?: string | undefined;
      }
  );

/** Reads NODE_ENV where there is one; bundlers replace `process.env.NODE_ENV`, browsers without it throw. */
const isProduction = (): boolean => {
  try {
    return process.env.NODE_ENV === 'production';
  } catch {
    return false;
  }
};

/**
 * Client credentials exchanged at `POST /oauth/token`. The exchange is an internal operation (not in `OperationId`), so
 * it goes through a client of that one route, with the same transport options as the client it serves.
 */
const clientCredentialsAuth = (options: ClientCredentialsOptions, validate: ResponseValidator | undefined) => {
  const tokenEndpoint = new BaseCreditClient<'createAccessToken'>(
    { createAccessToken: INTERNAL_ROUTES.createAccessToken },
    { ...options, auth: undefined },
    { validate, credentialsError: oauthErrorOf },
  );
  return new ClientCredentialsAuth(
    () =>
      tokenEndpoint.call('createAccessToken', {
        body: {
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
          scope: options.scope,
        },
      }) as Promise<TTokenResponse>,
    options.now ?? Date.now,
    options.tokenRenewalMarginMs ?? DEFAULT_RENEWAL_MARGIN_MS,
  );
};

/**
 * The Credit API client. Every operation of the contract is callable by its `operationId`, typed from the
 * contract's schemas: `await client.call('getUser', { params: { userId } })`. Success bodies are checked
 * against the contract (zod); `@credit/sdk/browser` is the same client without zod.
 */
export class CreditClient extends BaseCreditClient<OperationId> {
  private readonly credentials: ClientCredentialsAuth | undefined;

  constructor(options: CreditClientOptions) {
    const validate = (options.validateResponses ?? !isProduction()) ? validateWithContract : undefined;
    const credentials = options.auth ? undefined : clientCredentialsAuth(options, validate);
    super(PUBLIC_ROUTES, { ...options, auth: options.auth ?? credentials }, { validate, credentialsError: oauthErrorOf });
    this.credentials = credentials;
  }

  /**
   * A `ut_…` token for one of your users, for the widget or a mobile app (`POST /v1/auth/user-token`).
   * `externalUserId` is your own id for the user, the one you enrolled them with (not the API's `usr_…`).
   */
  async mintUserToken(user: MintUserTokenInput, options?: CallOptions): Promise<TUserTokenResponse> {
    const { userId, externalUserId, ...claims } = user;
    if (userId !== undefined && externalUserId !== undefined && userId !== externalUserId) {
      throw new TypeError(
        `mintUserToken: externalUserId (${JSON.stringify(externalUserId)}) and userId (${JSON.stringify(userId)}) differ; ` +
          'userId is the deprecated name of externalUserId: pass externalUserId alone',
      );
    }
    const body = { ...claims, externalUserId: externalUserId ?? userId };
    return this.call('createUserToken', { ...options, body } as CallArgs<'createUserToken'>);
  }

  /** The current access token (client-credentials clients only), fetched or renewed if needed. */
  accessToken(): Promise<string> {
    if (!this.credentials) throw new TypeError('accessToken() needs a client created with clientId and clientSecret');
    return this.credentials.token();
  }
}
