import { CreditClient } from '@credit/sdk';

/**
 * One client for your whole server. It fetches the access token, caches it and renews it before it expires (one
 * request in flight however many callers), retries 429 and 503 as `Retry-After` says, and reuses one
 * `Idempotency-Key` across the retries of a call. Keep the secret on your server.
 */
export const createCreditClient = (env: { CREDIT_API_URL: string; CREDIT_CLIENT_ID: string; CREDIT_CLIENT_SECRET: string }) =>
  new CreditClient({
    baseUrl: env.CREDIT_API_URL,
    clientId: env.CREDIT_CLIENT_ID,
    clientSecret: env.CREDIT_CLIENT_SECRET,
  });
