import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { verifyChain } from '../src/modules/audit/service.ts';
import { loadInstanceKeys } from '../src/security/instance-keys.ts';
import { TokenHasher } from '../src/security/token-hasher.ts';
import { enrollment, testConfig } from './helpers/harness.ts';
import { startServerProcess } from './helpers/processes.ts';
import { type SharedDatabase, sharedDatabase } from './helpers/shared-database.ts';
import { waitFor } from './helpers/webhook-receiver.ts';

const CLIENT_ID = 'cli_sbx_auditcrash01';
const CLIENT_SECRET = 'audit-crash-secret-0123456789';

/** An API-only server (no worker: every entry is one a request caused) on the shared database, with a token. */
const startApi = async (shared: SharedDatabase, env: Record<string, string> = {}) => {
  const server = await startServerProcess({
    ...shared.env,
    ...env,
    BOOTSTRAP_CLIENT_ID: CLIENT_ID,
    BOOTSTRAP_CLIENT_SECRET: CLIENT_SECRET,
    ROLE: 'api',
  });
  const tokenRes = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const enrol = async () => {
    const res = await fetch(`${server.url}/v1/users/enroll`, { method: 'POST', headers, body: JSON.stringify(enrollment()) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { userId: string } }).data.userId;
  };
  return { server, headers, enrol };
};

/**
 * Readers of GET /v1/users/{id} until one fails after `killed()`: the request ids of the reads answered 200. A reader
 * does not stop when the kill is sent but when it sees it, so reads are in flight when the process dies (a reader that
 * stopped on the flag could find every answer already in its socket on a loaded machine, and nothing cut).
 */
const readUntilKilled = (url: string, headers: Record<string, string>, users: string[], killed: () => boolean) => {
  const answered: string[] = [];
  let interrupted = 0;
  const reader = async (n: number) => {
    for (let i = n; ; i++) {
      try {
        const res = await fetch(`${url}/v1/users/${users[i % users.length]}`, { headers });
        const body = (await res.json()) as { meta: { requestId: string } };
        if (res.status === 200) answered.push(body.meta.requestId);
      } catch {
        interrupted += 1; // cut off by the kill (or refused after it): never answered, so nothing is owed
        if (killed()) return;
      }
    }
  };
  return { answered, interrupted: () => interrupted, reader };
};

const spooledRequestIds = async (db: Db): Promise<Set<string>> => {
  const { rows } = await db.query<{ entries: string }>('select entries from audit_spool');
  // Position 5 of a spooled entry is its request id (src/modules/audit/spool-entry.ts).
  return new Set(rows.flatMap((r) => (JSON.parse(r.entries) as unknown[][]).map((e) => String(e[5]))));
};

const chainedEntries = async (db: Db) =>
  (
    await db.query<{ type: string; request_id: string | null; user_id: string | null }>(
      'select type, request_id, user_id from audit_events where client_id = $1',
      [CLIENT_ID],
    )
  ).rows;

const verify = async (db: Db) => {
  const keys = await loadInstanceKeys(db, testConfig());
  return verifyChain(db, new TokenHasher(keys.tokenSigning), CLIENT_ID);
};

/** Restarts the API on the database a killed one left and stops it cleanly: its start chains what the spool held. */
const restartAndStop = async (shared: SharedDatabase) => {
  const { server } = await startApi(shared);
  await server.stop();
};

describe('audit trail durability', { timeout: 180_000 }, () => {
  it('keeps the entry of every answered request through a SIGKILL under heavy traffic, and the chain verifies', async () => {
    const shared = await sharedDatabase('auditcrash');
    try {
      const { server, headers, enrol } = await startApi(shared);
      const users: string[] = [];
      for (let i = 0; i < 5; i++) users.push(await enrol());

      // Reads (recorded through the spool and chained by the timer) and enrolments (consent recorded in their own
      // transaction), many at once.
      let killed = false;
      const reads = readUntilKilled(server.url, headers, users, () => killed);
      const answeredEnrolments: string[] = [];
      let interruptedEnrolments = 0;
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
            interruptedEnrolments += 1;
          }
        }
      };
      const load = [...Array.from({ length: 12 }, (_, n) => reads.reader(n)), enroller(), enroller()];
      await waitFor(() => expect(reads.answered.length).toBeGreaterThanOrEqual(400), 90_000);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      killed = true;
      await Promise.all([exited, ...load]);
      expect(reads.interrupted() + interruptedEnrolments).toBeGreaterThan(0);

      await restartAndStop(shared);
      const db = await shared.open();
      try {
        expect(await spooledRequestIds(db)).toEqual(new Set());
        const rows = await chainedEntries(db);
        const readIds = new Set(rows.filter((r) => r.type === 'personal_data.read').map((r) => r.request_id));
        expect(reads.answered.filter((id) => !readIds.has(id))).toEqual([]);
        const consented = new Set(rows.filter((r) => r.type === 'consent.given').map((r) => r.user_id));
        expect(answeredEnrolments.filter((id) => !consented.has(id))).toEqual([]);
        expect(await verify(db)).toMatchObject({ ok: true });
        // Entries may exist for requests the kill cut off (committed, never answered): more entries, never fewer.
        expect(readIds.size).toBeGreaterThanOrEqual(reads.answered.length);
      } finally {
        await db.close();
      }
    } finally {
      await shared.drop();
    }
  });

  it('chains, after a restart, the read entries a SIGKILL left in the spool, once each and verifiable', async () => {
    const shared = await sharedDatabase('auditspool');
    try {
      // A chainer that never runs in time: every answered read's entry is still in the spool at the kill.
      const { server, headers, enrol } = await startApi(shared, { AUDIT_CHAIN_INTERVAL_MS: '3600000' });
      const users = [await enrol(), await enrol()];
      let killed = false;
      const reads = readUntilKilled(server.url, headers, users, () => killed);
      const load = Array.from({ length: 6 }, (_, n) => reads.reader(n));
      await waitFor(() => expect(reads.answered.length).toBeGreaterThanOrEqual(100), 90_000);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      killed = true;
      await Promise.all([exited, ...load]);

      let db = await shared.open();
      try {
        const spooled = await spooledRequestIds(db);
        expect(reads.answered.filter((id) => !spooled.has(id))).toEqual([]);
        expect((await chainedEntries(db)).filter((r) => r.type === 'personal_data.read')).toEqual([]);
      } finally {
        await db.close();
      }

      await restartAndStop(shared);
      db = await shared.open();
      try {
        expect(await spooledRequestIds(db)).toEqual(new Set());
        const readIds = (await chainedEntries(db)).filter((r) => r.type === 'personal_data.read').map((r) => r.request_id);
        expect(reads.answered.filter((id) => !readIds.includes(id))).toEqual([]);
        expect(new Set(readIds).size).toBe(readIds.length); // chained once each
        expect(await verify(db)).toMatchObject({ ok: true, lastSeq: (await chainedEntries(db)).length });
      } finally {
        await db.close();
      }
    } finally {
      await shared.drop();
    }
  });
});
