import type { ServerResponse } from 'node:http';
import { createAccessToken, createUserToken, OAUTH_ERRORS, stringPolicyProblem } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { HttpRequest } from '../../http/api-request.ts';
import { isBasicAuthorization, parseBasicCredentials } from '../../http/basic-credentials.ts';
import { errorDocUrl } from '../../http/error-response.ts';
import { assertCredentialAttemptsLeft, recordFailedCredentials } from '../../http/rate-limit.ts';
import { bindRawRoute, bindRoute, type ModuleRoutes, send } from '../../http/route.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { type ClientCredentials, issueAccessToken, issueUserToken, OAuthError } from './service.ts';

/** client_secret_basic (RFC 6749 §2.3.1: form-urlencoded id and secret) or client_secret_post. */
const readPresentedCredentials = (req: HttpRequest): ClientCredentials => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const header = req.get('authorization');
  const inBody = typeof body.client_id === 'string' || typeof body.client_secret === 'string';
  if (isBasicAuthorization(header)) {
    if (inBody)
      throw new OAuthError('invalid_request', 'Send client credentials in one place: Basic auth or the body, not both.');
    const credentials = parseBasicCredentials(header);
    if (!credentials) throw new OAuthError('invalid_client', 'Malformed Basic credentials.');
    return credentials;
  }
  if (typeof body.client_id !== 'string' || typeof body.client_secret !== 'string') {
    throw new OAuthError('invalid_client', 'Client authentication is required: client_id and client_secret.');
  }
  return { clientId: body.client_id, clientSecret: body.client_secret };
};

/**
 * Credentials with control characters or unpaired surrogates (a NUL in `client_id`) name no client: RFC 6749
 * `invalid_client`, never a lookup the database would refuse.
 */
const checkedCredentials = (credentials: ClientCredentials): ClientCredentials => {
  if (stringPolicyProblem(credentials.clientId) || stringPolicyProblem(credentials.clientSecret)) {
    throw new OAuthError('invalid_client', 'Client authentication failed.');
  }
  return credentials;
};

const readCredentials = (req: HttpRequest): ClientCredentials => checkedCredentials(readPresentedCredentials(req));

const sendOAuthError = (ctx: AppContext, res: ServerResponse, error: OAuthError) => {
  if (error.code === 'invalid_client') res.setHeader('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  send(res, {
    status: OAUTH_ERRORS[error.code],
    body: {
      error: error.code,
      error_description: error.description,
      error_uri: errorDocUrl(publicBaseUrl(ctx.config), error.code),
    },
  });
};

const tokenEndpoint = (ctx: AppContext) => async (req: HttpRequest, res: ServerResponse) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  try {
    if (req.bodyError) throw new OAuthError('invalid_request', 'The body could not be read.');
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new OAuthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    // An empty form (Content-Length: 0) is parsed by nothing: no parameters, so grant_type is missing.
    const body = (req.body ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(body)) {
      if (typeof value !== 'string') throw new OAuthError('invalid_request', `Parameter ${name} must appear once.`);
    }
    if (!body.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.');
    const credentials = readCredentials(req);
    if (body.grant_type !== 'client_credentials') {
      throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
    }
    // Refused before the secret is checked while this address has failed too often, for this client or any.
    await assertCredentialAttemptsLeft(ctx, req, credentials.clientId);
    try {
      const token = await issueAccessToken(ctx, credentials, body.scope as string | undefined, req.ip, req.requestId);
      send(res, { status: 200, body: token });
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') {
        await recordFailedCredentials(ctx, req, credentials.clientId);
      }
      throw error;
    }
  } catch (error) {
    if (error instanceof OAuthError) return sendOAuthError(ctx, res, error);
    throw error;
  }
};

export const authRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRawRoute(createAccessToken, tokenEndpoint(ctx)),
    bindRoute(ctx, createUserToken, async ({ ctx, body, caller }) => ({ data: await issueUserToken(ctx, caller, body) })),
  ],
});
