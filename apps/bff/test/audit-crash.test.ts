import { describe, expect, it } from 'vitest';
import { verifyChain } from '../src/modules/audit/service.ts';
import { loadInstanceKeys } from '../src/security/instance-keys.ts';
import { TokenHasher } from '../src/security/token-hasher.ts';
import { enrollment, testConfig } from './helpers/harness.ts';
import { startServerProcess } from './helpers/processes.ts';
import { sharedDatabase } from './helpers/shared-database.ts';
import { waitFor } from './helpers/webhook-receiver.ts';

const CLIENT_ID = 'cli_sbx_auditcrash01';
const CLIENT_SECRET = 'audit-crash-secret-0123456789';

describe('audit trail durability', { timeout: 180_000 }, () => {
  it('keeps the entry of every answered request through a SIGKILL under heavy traffic, and the chain verifies', async () => {
    const shared = await sharedDatabase('auditcrash');
    try {
      const server = await startServerProcess({
        ...shared.env,
        BOOTSTRAP_CLIENT_ID: CLIENT_ID,
        BOOTSTRAP_CLIENT_SECRET: CLIENT_SECRET,
        // No worker: only the API writes to the trail, so every entry is one a request caused.
        ROLE: 'api',
      });
      const tokenRes = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
      });
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const users: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${server.url}/v1/users/enroll`, { method: 'POST', headers, body: JSON.stringify(enrollment()) });
        expect(res.status).toBe(201);
        users.push(((await res.json()) as { data: { userId: string } }).data.userId);
      }

      // Reads (recorded by the group commit) and enrolments (consent recorded in their own transaction), many at once.
      const answeredReads: string[] = [];
      const answeredEnrolments: string[] = [];
      let interrupted = 0;
      let killed = false;
      const reader = async (n: number) => {
        for (let i = n; !killed; i++) {
          try {
            const res = await fetch(`${server.url}/v1/users/${users[i % users.length]}`, { headers });
            const body = (await res.json()) as { meta: { requestId: string } };
            if (res.status === 200) answeredReads.push(body.meta.requestId);
          } catch {
            interrupted += 1; // cut off by the kill: never answered, so nothing is owed
          }
        }
      };
      const enroller = async () => {
        while (!killed) {
          try {
            const res = await fetch(`${server.url}/v1/users/enroll`, {
              method: 'POST',
              headers,
              body: JSON.stringify(enrollment()),
            });
            const body = (await res.json()) as { data: { userId: string } };
            if (res.status === 201) answeredEnrolments.push(body.data.userId);
          } catch {
            interrupted += 1;
          }
        }
      };
      const load = [...Array.from({ length: 12 }, (_, n) => reader(n)), enroller(), enroller()];
      await waitFor(() => expect(answeredReads.length).toBeGreaterThanOrEqual(400), 90_000);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      killed = true;
      await Promise.all([exited, ...load]);
      expect(interrupted).toBeGreaterThan(0);

      const db = await shared.open();
      try {
        const { rows } = await db.query<{ type: string; request_id: string | null; user_id: string | null }>(
          'select type, request_id, user_id from audit_events where client_id = $1',
          [CLIENT_ID],
        );
        const readIds = new Set(rows.filter((r) => r.type === 'personal_data.read').map((r) => r.request_id));
        expect(answeredReads.filter((id) => !readIds.has(id))).toEqual([]);
        const consented = new Set(rows.filter((r) => r.type === 'consent.given').map((r) => r.user_id));
        expect(answeredEnrolments.filter((id) => !consented.has(id))).toEqual([]);
        const keys = await loadInstanceKeys(db, testConfig());
        expect(await verifyChain(db, new TokenHasher(keys.tokenSigning), CLIENT_ID)).toMatchObject({ ok: true });
        // Entries may exist for requests the kill cut off (committed, never answered): more entries, never fewer.
        expect(readIds.size).toBeGreaterThanOrEqual(answeredReads.length);
      } finally {
        await db.close();
      }
    } finally {
      await shared.drop();
    }
  });
});
