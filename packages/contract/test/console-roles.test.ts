import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS, CONSOLE_OPERATIONS } from '../src/index.ts';

// The console's table is its only gate on what a role may call, so a wrong entry grants that operation outright:
// these lists name, on purpose, each exception a reviewer must agree to.
const VIEWER_POSTS_THAT_CHANGE_NO_DATA = ['verifyAuditTrail'];
const ADMIN_SCOPE_OPERATIONS = [
  'getClientCredentials',
  'rotateClientSecret',
  'listAuditEvents',
  'verifyAuditTrail',
  'listSandboxClocks',
  'getSandboxClock',
  'createSandboxClock',
  'attachSandboxClockUsers',
  'advanceSandboxClock',
];

const byId = new Map(ALL_OPERATIONS.map((op) => [op.operationId, op]));
const entries = Object.entries(CONSOLE_OPERATIONS).map(([id, entry]) => [id, entry.role] as [string, string]);

describe("the console's operations table", () => {
  it('names only operations of the contract, none of them a user-token or token-minting route', () => {
    for (const [id] of entries) {
      const op = byId.get(id);
      expect(op, id).toBeDefined();
      expect(op?.auth.kind, id).toBe('bearer');
    }
  });

  it('names for each operation the scope the contract gives it: what the console hides and the server admits', () => {
    for (const [id, entry] of Object.entries(CONSOLE_OPERATIONS)) {
      const auth = byId.get(id)?.auth;
      expect(auth?.kind === 'bearer' ? auth.scope : undefined, id).toBe(entry.scope);
    }
  });

  it('lets a viewer only read: every viewer operation is a GET but the named ones', () => {
    const viewerChanges = entries.filter(([id, role]) => role === 'viewer' && byId.get(id)?.method !== 'get').map(([id]) => id);
    expect(viewerChanges).toEqual(VIEWER_POSTS_THAT_CHANGE_NO_DATA);
  });

  it('reaches admin-scope operations only where listed', () => {
    const admin = entries
      .filter(([id]) => {
        const auth = byId.get(id)?.auth;
        return auth?.kind === 'bearer' && 'scope' in auth && auth.scope === 'admin';
      })
      .map(([id]) => id)
      .sort();
    expect(admin).toEqual([...ADMIN_SCOPE_OPERATIONS].sort());
  });
});
