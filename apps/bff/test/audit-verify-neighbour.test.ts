import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { appendEntries } from '../src/modules/audit/append-repo.ts';
import type { PendingEntry } from '../src/modules/audit/entry.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { usingPostgres } from './helpers/test-db.ts';

// Tens of thousands on PostgreSQL (seconds to insert); fewer on PGlite, whose inserts and reads share this process.
const TRAIL = usingPostgres ? 40_000 : 12_000;
const CONCURRENT_VERIFIES = 8;

let appended = 0;
/** `n` entries chained straight into the client's trail (no spool, no request), 5,000 per transaction. */
const appendTrail = async (db: Db, clientId: string, n: number) => {
  const at = new Date();
  for (let done = 0; done < n; done += 5000) {
    const entries = Array.from(
      { length: Math.min(5000, n - done) },
      (): PendingEntry => ({
        id: `aud_neighbour${String(++appended).padStart(10, '0')}`,
        type: 'credit_data.read',
        clientId,
        actorKind: 'client',
        actorId: clientId,
        userId: `usr_neighbour${appended % 101}`,
        requestId: `req_neighbour${appended}`,
        subject: { operationId: 'getCreditScore' },
        occurredAt: at,
      }),
    );
    await db.transaction((tx) => appendEntries(tx, entries));
  }
};

describe('POST /v1/audit-events/verify beside another client reading scores', { timeout: 120_000 }, () => {
  let app: TestApp;
  beforeAll(async () => {
    // Many verifies and reads in a minute: the rate limits are not what this file is about.
    app = await startTestApp({ config: { RATE_LIMIT_BATCH_PER_MIN: '1000', RATE_LIMIT_USER_OPS_PER_MIN: '100000' } });
  });
  afterAll(() => app.close());

  it("answers every one of a client's concurrent verifies alike, and the other client's reads all succeed", async () => {
    const bank = await app.createClient();
    const neighbour = await app.createClient();
    const bankToken = await app.token(bank); // entry 1 of its trail
    await appendTrail(app.db, bank.id, TRAIL);
    const trail = TRAIL + 1;
    const neighbourToken = await app.token(neighbour);
    const userId = await enrolActiveUser(app, neighbourToken);
    const readScore = () => app.request('GET', `/v1/users/${userId}/credit-score`, { token: neighbourToken });
    expect((await readScore()).status).toBe(200);

    const verify = (query = '') => app.request('POST', `/v1/audit-events/verify${query}`, { token: bankToken });
    let verifying = true;
    const reads: number[] = [];
    const reader = (async () => {
      do reads.push((await readScore()).status);
      while (verifying);
    })();
    const answers = await Promise.all(Array.from({ length: CONCURRENT_VERIFIES }, () => verify()));
    verifying = false;
    await reader;

    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((status) => status === 200)).toBe(true);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      // The first check walks the trail; calls arriving while it runs share one more check, from where it ended.
      expect([
        { clientId: bank.id, ok: true, checked: trail, from: 0, lastSeq: trail },
        { clientId: bank.id, ok: true, checked: 0, from: trail, lastSeq: trail },
      ]).toContainEqual(answer.body.data);
    }

    await appendTrail(app.db, bank.id, 1234);
    const again = await verify();
    expect(again.body.data).toEqual({ clientId: bank.id, ok: true, checked: 1234, from: trail, lastSeq: trail + 1234 });
    const full = await verify('?from=start');
    expect(full.body.data).toEqual({ clientId: bank.id, ok: true, checked: trail + 1234, from: 0, lastSeq: trail + 1234 });
  });
});
