import { readFileSync } from 'node:fs';
import { ALL_OPERATIONS } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, renderRoutes, routeSpecOf } from '../scripts/generate.ts';
import { INTERNAL_OPERATION_IDS } from '../src/internal-operations.ts';
import { parseRoute } from '../src/route.ts';
import { INTERNAL_ROUTES, SERVER_ROUTES, USER_TOKEN_ROUTES } from '../src/routes.generated.ts';

describe('src/routes.generated.ts', () => {
  it('is what the generator makes from the contract today (run `pnpm --filter @credit/sdk generate` when not)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(renderRoutes());
  });

  it.each(ALL_OPERATIONS.map((operation) => [operation.operationId, operation]))(
    'reads back %s as the contract declares it',
    (_, operation) => {
      const route = parseRoute(routeSpecOf(operation));
      expect(route).toEqual({
        method: operation.method.toUpperCase(),
        path: operation.path,
        credentials: operation.auth.kind === 'client-credentials',
        idempotent: operation.idempotent === true,
        form: operation.request.bodyType === 'application/x-www-form-urlencoded',
        success: !operation.success.data ? 'none' : operation.success.raw ? 'raw' : operation.success.list ? 'list' : 'data',
      });
    },
  );

  it('gives the browser entry exactly the public operations a user token may call', () => {
    const isInternal = (id: string) => (INTERNAL_OPERATION_IDS as readonly string[]).includes(id);
    const userTokenOperations = ALL_OPERATIONS.filter(
      (op) => op.auth.kind === 'bearer' && op.auth.userToken && !isInternal(op.operationId),
    );
    expect(Object.keys(USER_TOKEN_ROUTES).sort()).toEqual(userTokenOperations.map((op) => op.operationId).sort());
    expect(Object.keys(SERVER_ROUTES)).not.toContain('getMe');
  });

  it('keeps the internal operations (token exchange, widget session) out of the public lists', () => {
    expect(Object.keys(INTERNAL_ROUTES).sort()).toEqual(['createAccessToken', 'createWidgetSession', 'getWidgetSession']);
    for (const id of INTERNAL_OPERATION_IDS) {
      expect(USER_TOKEN_ROUTES).not.toHaveProperty(id);
      expect(SERVER_ROUTES).not.toHaveProperty(id);
    }
  });
});
