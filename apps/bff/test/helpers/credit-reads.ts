import type { TAuditEventType, TCreditReport, TCreditScore } from '@credit/contract';
import { expect } from 'vitest';
import { chainSpooledEntries } from '../../src/modules/audit/service.ts';
import { countingBureau } from './counting-bureau.ts';
import { startTestApp, type TestApp } from './harness.ts';

/** The day the credit report and simulator tests pull and read files. */
export const READ_DAY = '2026-11-23T10:00:00.000Z';

/** An app on the counting sandbox bureau, its clock on READ_DAY, and one client with its token. */
export const startCreditReadApp = async () => {
  const counting = countingBureau();
  const app = await startTestApp({ bureau: counting.bureau });
  app.clock.set(READ_DAY);
  const client = await app.createClient();
  return { app, client, counting, tok: () => app.currentToken(client) };
};

/** A user's credit report, expected to answer 200. */
export const readReport = async (app: TestApp, token: string, userId: string): Promise<TCreditReport> => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-report`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** A user's current score, expected to answer 200. */
export const readScore = async (app: TestApp, token: string, userId: string): Promise<TCreditScore> => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** How many audit entries of `type` (and of `operationId`, if given) are about a user, once the spool is chained. */
export const auditEntriesOf = async (
  app: TestApp,
  type: TAuditEventType,
  userId: string,
  operationId?: string,
): Promise<number> => {
  await chainSpooledEntries(app.ctx);
  const { rows } = await app.db.query<{ n: number }>(
    `select count(*)::int as n from audit_events
     where type = $1 and user_id = $2 and ($3::text is null or subject->>'operationId' = $3)`,
    [type, userId, operationId ?? null],
  );
  return Number(rows[0]?.n);
};
