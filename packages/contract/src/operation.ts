import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';

export const SCOPES = ['read', 'write', 'offers', 'webhooks', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Who may call an operation.
 * - `scope`: the access-token scope it needs (`admin` implies every scope).
 * - `userToken`: whether a user token (`ut_…`) is accepted, and how:
 *   `own-user` — only when the path's `userId` is the token's own user; `self` — the route acts on the token's user.
 * - `adminOnly`: only an access token holding `admin` itself (sandbox helpers).
 */
export type OperationAuth =
  | { kind: 'bearer'; scope: Scope; userToken?: 'own-user' | 'self'; userTokenOnly?: boolean }
  | { kind: 'client-credentials' };

/** Which per-client rate-limit bucket a call counts against. */
export type RateLimitBucket = 'auth' | 'batch' | 'userOps';

export interface OperationSuccess {
  status: 200 | 201 | 202 | 204;
  description: string;
  /** Schema of `data` (single) or of one item (list). Absent for 204. */
  data?: z.ZodType;
  list?: boolean;
  /** A body that is not wrapped in the envelope (the OAuth token response). */
  raw?: boolean;
  /** Extra top-level `meta` fields (batch counts). */
  meta?: z.ZodObject;
}

export interface Operation {
  operationId: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path: `/v1/users/{userId}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: OperationAuth;
  rateLimit: RateLimitBucket;
  /** Sandbox helpers answer 404 on a production instance. */
  sandboxOnly?: boolean;
  request: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: z.ZodType;
    /** The body's media type, JSON unless stated. */
    bodyType?: 'application/json' | 'application/x-www-form-urlencoded';
  };
  success: OperationSuccess;
  /**
   * Error codes this operation can answer beyond the ones every operation can and the ones its own flags
   * imply (see `documentedErrors`).
   */
  errors: ErrorCode[];
  /** A POST that honours `Idempotency-Key`. */
  idempotent?: boolean;
  /** Marks a route as deprecated: adds `Deprecation` and `Sunset` headers. */
  deprecated?: { since: string; sunset: string; link?: string };
}

/** Keeps the literal types of an operation while checking its shape. */
export const defineOperation = <const O extends Operation>(operation: O): O => operation;

/** Errors any authenticated operation can answer. */
export const COMMON_ERRORS: ErrorCode[] = [
  'VALIDATION_ERROR',
  'AUTHENTICATION_ERROR',
  'AUTHORIZATION_ERROR',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

/**
 * Every error code an operation can answer: the common ones, the ones its flags imply, and its own list.
 * The OpenAPI document lists exactly these, and the server warns when it answers anything else, so a
 * flag (idempotency, a path parameter, sandbox-only) can never be added without its documented error.
 */
export const documentedErrors = (op: Operation): ErrorCode[] => {
  const codes: ErrorCode[] =
    op.auth.kind === 'client-credentials' ? ['RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'] : [...COMMON_ERRORS];
  if (op.idempotent) codes.push('IDEMPOTENCY_CONFLICT');
  // An id in the path may match nothing visible to the caller; a sandbox helper is 404 on production.
  if (op.request.params || op.sandboxOnly) codes.push('NOT_FOUND');
  // A write about one user is refused while the sandbox test clock that user is on advances.
  if (op.method !== 'get' && op.request.params && 'userId' in op.request.params.shape) codes.push('CLOCK_ADVANCING');
  codes.push(...op.errors);
  return [...new Set(codes)];
};
