import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BureauProvider, CreditFile } from '../src/bureau/provider.ts';
import { sandboxSimulatedScore } from '../src/bureau/sandbox/simulate-score.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/** A bureau whose files hold nothing to ask about: one card opened this year, no past address. */
const thinFile = (asOf: Date): CreditFile => ({
  bureau: 'Experian',
  monthlyScores: [{ date: asOf.toISOString().slice(0, 10), score: 640 }],
  tradelines: [
    {
      id: 'tl_1',
      lender: 'Northwind Bank',
      kind: 'credit_card',
      status: 'open',
      openedOn: asOf.toISOString().slice(0, 10),
      closedOn: null,
      limitOrAmount: 500,
      balance: 100,
      latePayments: 0,
      monthlyPayment: 25,
      apr: 24.99,
      termMonths: null,
      paymentHistory: ['ok'],
    },
  ],
  inquiries: [],
  pastAddresses: [],
  reportedAddresses: [],
  flags: [],
  onTimePaymentPercent: 100,
  collections: [],
  publicRecords: [],
  softInquiries: [],
  names: [],
  yearOfBirth: null,
  employers: [],
});

const thinBureau: BureauProvider = {
  name: 'thin-test-bureau',
  pullCreditFile: async (_subject, asOf) => ({ status: 'ok', file: thinFile(asOf) }),
  pullIdentityFile: async (_subject, asOf) => thinFile(asOf),
  simulateScore: async (_subject, asOf, actions) => sandboxSimulatedScore(thinFile(asOf), asOf, actions),
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ bureau: thinBureau });
});
afterAll(() => app.close());

describe('identity verification over a thin credit file', () => {
  it('answers 503 saying to verify the user another way, and starts no session', async () => {
    const token = await app.token(await app.createClient());
    const userId = await enrolUser(app, token);
    const res = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body.error.message).toMatch(/too little history/);
    const { rows } = await app.db.query('select count(*)::int as n from verification_sessions');
    expect(rows[0]).toEqual({ n: 0 });
    expect((await app.request('GET', `/v1/users/${userId}`, { token })).body.data.status).toBe('pending_verification');
  });
});
