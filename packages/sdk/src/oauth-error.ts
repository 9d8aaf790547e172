import type { OAuthErrorCode } from '@credit/contract';
import { CreditOAuthError } from './errors.ts';
import { type CredentialsErrorParser, isObject } from './response.ts';
import { OAUTH_ERROR_CODES } from './routes.generated.ts';

export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
  error_uri?: string;
}

/** An RFC 6749 error body from the token endpoint, checked as the contract's `ZOAuthError` would, or undefined. */
export const parseOAuthError = (value: unknown): OAuthErrorBody | undefined => {
  if (!isObject(value) || !OAUTH_ERROR_CODES.includes(value.error as OAuthErrorCode)) return undefined;
  if (typeof value.error_description !== 'string') return undefined;
  if (value.error_uri !== undefined && typeof value.error_uri !== 'string') return undefined;
  const body: OAuthErrorBody = { error: value.error as OAuthErrorCode, error_description: value.error_description };
  if (typeof value.error_uri === 'string') body.error_uri = value.error_uri;
  return body;
};

/** The error, its message ending with the page that explains it (`error_uri`), which a log line then carries. */
export const oauthErrorOf: CredentialsErrorParser = (body, status) => {
  const oauth = parseOAuthError(body);
  if (!oauth) return undefined;
  const message = oauth.error_uri ? `${oauth.error_description} (see ${oauth.error_uri})` : oauth.error_description;
  return new CreditOAuthError(oauth.error, message, status, oauth.error_uri);
};
