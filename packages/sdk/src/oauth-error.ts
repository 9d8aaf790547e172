import type { OAuthErrorCode } from '@credit/contract';
import { CreditOAuthError } from './errors.ts';
import { type CredentialsErrorParser, isObject } from './response.ts';
import { OAUTH_ERROR_CODES } from './routes.generated.ts';

/** An RFC 6749 error body from the token endpoint, checked as the contract's `ZOAuthError` would, or undefined. */
export const parseOAuthError = (value: unknown): { error: OAuthErrorCode; error_description: string } | undefined =>
  isObject(value) && OAUTH_ERROR_CODES.includes(value.error as OAuthErrorCode) && typeof value.error_description === 'string'
    ? { error: value.error as OAuthErrorCode, error_description: value.error_description }
    : undefined;

export const oauthErrorOf: CredentialsErrorParser = (body, status) => {
  const oauth = parseOAuthError(body);
  return oauth && new CreditOAuthError(oauth.error, oauth.error_description, status);
};
