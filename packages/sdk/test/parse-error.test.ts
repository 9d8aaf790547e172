import { ZErrorBody, ZOAuthError } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { parseOAuthError } from '../src/oauth-error.ts';
import { parseApiError } from '../src/response.ts';

// The browser entry checks error bodies without zod; it must accept exactly what the contract's schema accepts.
const errorMembers: unknown[] = [
  { code: 'NOT_FOUND', message: 'No such user' },
  { code: 'VALIDATION_ERROR', message: 'Bad', details: [{ field: 'ssnLast4', message: 'four digits' }] },
  { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down', retryAfter: 30 },
  { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down', retryAfter: 0 },
  { code: 'VERIFICATION_LOCKED', message: 'Locked', unlocksAt: '2026-01-01T00:00:00Z' },
  { code: 'NOT_FOUND', message: 'No such user', docUrl: 'https://api.example.com/docs/errors#NOT_FOUND' },
  { code: 'NOT_FOUND', message: 'No such user', docUrl: 7 },
  { code: 'NOT_A_CODE', message: 'x' },
  { code: 'NOT_FOUND' },
  { code: 'NOT_FOUND', message: 7 },
  { code: 'VALIDATION_ERROR', message: 'Bad', details: [{ field: 'x' }] },
  { code: 'VALIDATION_ERROR', message: 'Bad', details: 'x' },
  { code: 'RATE_LIMIT_EXCEEDED', message: 'x', retryAfter: -1 },
  { code: 'RATE_LIMIT_EXCEEDED', message: 'x', retryAfter: 1.5 },
  { code: 'RATE_LIMIT_EXCEEDED', message: 'x', retryAfter: '30' },
  { code: 'VERIFICATION_LOCKED', message: 'x', unlocksAt: 5 },
  'NOT_FOUND',
  null,
  [],
  undefined,
];

describe('parseApiError', () => {
  it.each(errorMembers.map((member) => [JSON.stringify(member), member]))('agrees with ZErrorBody on %s', (_, member) => {
    const zod = ZErrorBody.shape.error.safeParse(member);
    const parsed = parseApiError(member);
    expect(parsed !== undefined).toBe(zod.success);
    if (zod.success) expect(parsed).toEqual(zod.data);
  });
});

describe('parseOAuthError', () => {
  it.each([
    [{ error: 'invalid_client', error_description: 'Unknown client' }],
    [{ error: 'invalid_client' }],
    [{ error: 'no_such_error', error_description: 'x' }],
    [{ error: { code: 'NOT_FOUND' } }],
    [
      {
        error: 'invalid_client',
        error_description: 'Unknown client',
        error_uri: 'https://api.example/docs/errors#invalid_client',
      },
    ],
    [{ error: 'invalid_client', error_description: 'Unknown client', error_uri: 7 }],
  ])('agrees with ZOAuthError on %j', (body) => {
    expect(parseOAuthError(body) !== undefined).toBe(ZOAuthError.safeParse(body).success);
  });
});
