import {
  MAX_SIMULATED_MONTHS,
  ratingForScore,
  SIMULATION_DISCLAIMER,
  type TCreditReport,
  type TCreditScore,
  type TSimulation,
  type TSimulationAction,
} from '@credit/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { countingBureau } from './helpers/counting-bureau.ts';
import { auditEntriesOf, readReport, readScore, startCreditReadApp } from './helpers/credit-reads.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import type { TestApp } from './helpers/harness.ts';

let app: TestApp;
let counting: ReturnType<typeof countingBureau>;
let tok: () => Promise<string>;
beforeAll(async () => {
  ({ app, counting, tok } = await startCreditReadApp());
});
afterAll(() => app.close());

type Account = TCreditReport['accounts'][number];

const simulate = async (userId: string, actions: unknown[], token?: string) =>
  app.request<{ data: TSimulation; error?: { code: string; details?: { field: string; message: string }[] } }>(
    'POST',
    `/v1/users/${userId}/credit-score/simulations`,
    { token: token ?? (await tok()), body: { actions } },
  );
const simulated = async (userId: string, actions: unknown[]): Promise<TSimulation> => {
  const res = await simulate(userId, actions);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const reportOf = async (userId: string): Promise<TCreditReport> => readReport(app, await tok(), userId);
const scoreOf = async (userId: string): Promise<TCreditScore> => readScore(app, await tok(), userId);

const isOpen = (a: Account) => a.type !== 'collection' && a.closedOn === null;
const openCards = (r: TCreditReport) => r.accounts.filter((a) => isOpen(a) && a.type === 'credit_card');
const withBalance = (r: TCreditReport) => r.accounts.filter((a) => isOpen(a) && a.balance >= 2);

/** Files with cards, loans and balances (1001 also has late payments and closed accounts to refuse). */
const IDENTITIES = [
  { firstName: 'Jane', lastName: 'Doe', ssn: '1234', dateOfBirth: '1985-04-12' },
  { firstName: 'Story', lastName: 'Teller', ssn: '1001', dateOfBirth: '1988-03-09' },
  { firstName: 'Alex', lastName: 'Morgan', ssn: '4321', dateOfBirth: '1979-11-02' },
];

let users: { userId: string; report: TCreditReport }[];
beforeAll(async () => {
  users = [];
  for (const identity of IDENTITIES) {
    const userId = await enrolActiveUser(app, await tok(), identity);
    users.push({ userId, report: await reportOf(userId) });
  }
});

describe('POST /v1/users/{userId}/credit-score/simulations', () => {
  it('answers the score on record, the estimate, each factor before and after, and the disclaimer', async () => {
    const { userId, report } = users[0] as (typeof users)[number];
    const [card] = openCards(report).filter((a) => a.balance >= 2);
    expect(card, 'a card with a balance').toBeDefined();
    const score = await scoreOf(userId);
    const data = await simulated(userId, [
      { type: 'pay_down_balance', accountId: card?.accountId, amount: Math.floor((card?.balance ?? 2) / 2) },
    ]);
    expect(data.currentScore).toBe(score.score);
    expect(data.change).toBe(data.simulatedScore - data.currentScore);
    expect(data.currentRating).toBe(ratingForScore(data.currentScore));
    expect(data.simulatedRating).toBe(ratingForScore(data.simulatedScore));
    expect(data.scoreRange).toEqual({ min: 300, max: 850 });
    expect(data.bureau).toBe(score.bureau);
    expect(data.reportDate).toBe(report.reportDate);
    expect(data.disclaimer).toBe(SIMULATION_DISCLAIMER);
    expect(data.factors.map((f) => ({ code: f.code, name: f.name, ...f.before }))).toEqual(
      score.factors.map((f) => ({ code: f.code, name: f.name, score: f.score, impact: f.impact })),
    );
    const utilization = data.factors.find((f) => f.code === 'CREDIT_UTILIZATION');
    expect(utilization?.after.score).toBeGreaterThanOrEqual(utilization?.before.score ?? 0);
    expect(data.change).toBeGreaterThanOrEqual(0);
  });

  it('is deterministic: the same actions on the same file answer the same figures', async () => {
    const { userId, report } = users[1] as (typeof users)[number];
    const [account] = withBalance(report);
    const actions = [
      { type: 'pay_on_time', months: 6 },
      { type: 'open_credit_card', creditLimit: 5000 },
      ...(account ? [{ type: 'miss_payment', accountId: account.accountId }] : []),
      { type: 'hard_inquiry' },
    ];
    const first = await simulated(userId, actions);
    for (let i = 0; i < 3; i++) expect(await simulated(userId, actions)).toEqual(first);
  });

  it('stores nothing and pulls nothing', async () => {
    const { userId, report } = users[1] as (typeof users)[number];
    const [account] = withBalance(report);
    const before = await footprint(userId);
    const simulations = counting.simulations();
    for (const actions of [
      [{ type: 'hard_inquiry' }],
      [{ type: 'take_loan', loanType: 'auto_loan', amount: 25_000 }],
      ...(account ? [[{ type: 'close_account', accountId: account.accountId }]] : []),
    ]) {
      await simulated(userId, actions);
    }
    expect(await footprint(userId)).toEqual(before);
    expect(counting.simulations()).toBe(simulations + (account ? 3 : 2));
    expect(await reportOf(userId)).toEqual(report);
  });

  it('answers 400 naming the action whose account or amount does not fit, before asking the bureau', async () => {
    const { userId, report } = users[1] as (typeof users)[number];
    const simulations = counting.simulations();
    const expectRefused = async (actions: unknown[], field: string, message: string | RegExp) => {
      const res = await simulate(userId, actions);
      expect(res.status, JSON.stringify(actions)).toBe(400);
      expect(res.body.error?.code).toBe('VALIDATION_ERROR');
      expect(res.body.error?.details).toEqual([{ field, message: expect.stringMatching(message) }]);
    };
    const notOnReport = "is not an account on this user's credit report";
    await expectRefused(
      [{ type: 'pay_down_balance', accountId: 'acc_00000000000000000000', amount: 10 }],
      'actions.0.accountId',
      notOnReport,
    );
    // Another user's account is not on this report: ids are per user.
    const theirs = (users[0] as (typeof users)[number]).report.accounts[0] as Account;
    await expectRefused(
      [{ type: 'hard_inquiry' }, { type: 'miss_payment', accountId: theirs.accountId }],
      'actions.1.accountId',
      notOnReport,
    );
    const account = withBalance(report)[0] as Account;
    await expectRefused(
      [{ type: 'pay_down_balance', accountId: account.accountId, amount: account.balance + 1 }],
      'actions.0.amount',
      /^must be at most the account's balance, \$/,
    );
    const card = openCards(report)[0] as Account;
    await expectRefused(
      [
        { type: 'pay_on_time', months: 2 },
        { type: 'raise_credit_limit', accountId: card.accountId, newLimit: card.creditLimit },
      ],
      'actions.1.newLimit',
      /^must be more than the current credit line/,
    );
    await expectRefused(
      [
        { type: 'close_account', accountId: account.accountId },
        { type: 'miss_payment', accountId: account.accountId },
      ],
      'actions.1.accountId',
      /^is closed/,
    );
    await expectRefused(
      [
        { type: 'pay_down_balance', accountId: account.accountId, amount: account.balance },
        { type: 'pay_down_balance', accountId: account.accountId, amount: 1 },
      ],
      'actions.1.accountId',
      /^has no balance to pay down$/,
    );
    const [loan] = users.flatMap((u) =>
      u.report.accounts.filter((a) => isOpen(a) && a.type !== 'credit_card').map((a) => [u.userId, a] as const),
    );
    if (!loan) throw new Error('no open loan among the users');
    const raised = await simulate(loan[0], [{ type: 'raise_credit_limit', accountId: loan[1].accountId, newLimit: 1_000_000 }]);
    expect(raised.status).toBe(400);
    expect(raised.body.error?.details).toEqual([
      { field: 'actions.0.accountId', message: 'is not a credit card: only a card has a credit line to raise' },
    ]);
    const closed = report.accounts.find((a) => a.type !== 'collection' && a.closedOn !== null);
    if (closed)
      await expectRefused([{ type: 'close_account', accountId: closed.accountId }], 'actions.0.accountId', /^is closed/);
    const collection = users.flatMap((u) =>
      u.report.accounts.filter((a) => a.type === 'collection').map((a) => [u.userId, a] as const),
    )[0];
    if (collection) {
      const res = await simulate(collection[0], [{ type: 'miss_payment', accountId: collection[1].accountId }]);
      expect(res.status).toBe(400);
      expect(res.body.error?.details).toEqual([{ field: 'actions.0.accountId', message: notOnReport }]);
    }
    expect(counting.simulations()).toBe(simulations);

    const shape = await simulate(userId, []);
    expect(shape.status).toBe(400);
    expect(shape.body.error?.details?.[0]?.field).toBe('actions');
  });

  it('pays down a closed card: its balance still counts toward utilization, so paying it lowers utilization', async () => {
    const { userId, report } = users[0] as (typeof users)[number];
    const card = openCards(report).find((a) => a.balance >= 2) as Account;
    const closeOnly = await simulated(userId, [{ type: 'close_account', accountId: card.accountId }]);
    const closedAndPaid = await simulated(userId, [
      { type: 'close_account', accountId: card.accountId },
      { type: 'pay_down_balance', accountId: card.accountId, amount: card.balance },
    ]);
    const utilization = (s: TSimulation) => s.factors.find((f) => f.code === 'CREDIT_UTILIZATION')?.after.score ?? -1;
    expect(utilization(closedAndPaid)).toBeGreaterThan(utilization(closeOnly));
    expect(closedAndPaid.simulatedScore).toBeGreaterThanOrEqual(closeOnly.simulatedScore);
    // Paying more than the closed card owes is still refused, naming the amount.
    const tooMuch = await simulate(userId, [
      { type: 'close_account', accountId: card.accountId },
      { type: 'pay_down_balance', accountId: card.accountId, amount: card.balance + 1 },
    ]);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error?.details).toEqual([
      { field: 'actions.1.amount', message: expect.stringMatching(/^must be at most the account's balance, \$/) },
    ]);
    // Every other action still needs an open account.
    const missed = await simulate(userId, [
      { type: 'close_account', accountId: card.accountId },
      { type: 'miss_payment', accountId: card.accountId },
    ]);
    expect(missed.body.error?.details).toEqual([
      { field: 'actions.1.accountId', message: 'is closed: a closed account can only have its balance paid down' },
    ]);
  });

  it(`bounds pay_on_time to ${MAX_SIMULATED_MONTHS} months in all, across the actions of one simulation`, async () => {
    const { userId } = users[0] as (typeof users)[number];
    const simulations = counting.simulations();
    const message = `pay_on_time months add up to more than ${MAX_SIMULATED_MONTHS} across the actions; a simulation looks at most ${MAX_SIMULATED_MONTHS} months ahead`;
    const tenYears = await simulate(
      userId,
      Array.from({ length: 10 }, () => ({ type: 'pay_on_time', months: MAX_SIMULATED_MONTHS })),
    );
    expect(tenYears.status).toBe(400);
    expect(tenYears.body.error?.code).toBe('VALIDATION_ERROR');
    expect(tenYears.body.error?.details).toEqual([{ field: 'actions.1.months', message }]);
    const oneOver = await simulate(userId, [
      { type: 'pay_on_time', months: 10 },
      { type: 'hard_inquiry' },
      { type: 'pay_on_time', months: 14 },
      { type: 'pay_on_time', months: 1 },
    ]);
    expect(oneOver.status).toBe(400);
    expect(oneOver.body.error?.details).toEqual([{ field: 'actions.3.months', message }]);
    expect(counting.simulations()).toBe(simulations);
    // Exactly the bound, split over actions, is a simulation like any other.
    const split = await simulated(userId, [
      { type: 'pay_on_time', months: 10 },
      { type: 'hard_inquiry' },
      { type: 'pay_on_time', months: MAX_SIMULATED_MONTHS - 10 },
    ]);
    expect(split.currentScore).toBe((await scoreOf(userId)).score);
    // The served OpenAPI says so where the actions are described.
    const document = (await app.request('GET', '/openapi.json')).body as {
      components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
    };
    expect(document.components.schemas.SimulationInput?.properties?.actions?.description).toContain(
      `at most ${MAX_SIMULATED_MONTHS} months in all`,
    );
  });

  it('is audited as a credit-data read, once per simulation answered', async () => {
    const { userId } = users[0] as (typeof users)[number];
    const before = await auditEntriesOf(app, 'credit_data.read', userId, 'simulateCreditScore');
    await simulated(userId, [{ type: 'hard_inquiry' }]);
    expect((await simulate(userId, [])).status).toBe(400);
    expect(await auditEntriesOf(app, 'credit_data.read', userId, 'simulateCreditScore')).toBe(before + 1);
  });

  it('answers 503 when there is no bureau to ask', async () => {
    const { userId } = users[0] as (typeof users)[number];
    const bureau = app.ctx.bureau;
    app.ctx.bureau = undefined;
    try {
      const res = await simulate(userId, [{ type: 'hard_inquiry' }]);
      expect(res.status).toBe(503);
      expect(res.body.error?.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      app.ctx.bureau = bureau;
    }
  });

  it('follows the score’s access rules', async () => {
    const userId = await enrolActiveUser(app, await tok(), { externalUserId: 'simulate-own-1' });
    const other = await enrolActiveUser(app, await tok());
    const userToken = await app.userToken(await tok(), 'simulate-own-1');
    expect((await simulate(userId, [{ type: 'hard_inquiry' }], userToken)).status).toBe(200);
    expect((await simulate(other, [{ type: 'hard_inquiry' }], userToken)).status).toBe(404);
    const stranger = await app.token(await app.createClient());
    expect((await simulate(userId, [{ type: 'hard_inquiry' }], stranger)).status).toBe(404);

    const frozen = await enrolActiveUser(app, await tok(), { ssn: '0000' });
    expect((await simulate(frozen, [{ type: 'hard_inquiry' }])).body.error?.code).toBe('CREDIT_FROZEN');
    const pending = await enrolUser(app, await tok());
    expect((await simulate(pending, [{ type: 'hard_inquiry' }])).body.error?.code).toBe('USER_NOT_ENROLLED');

    expect((await app.request('POST', `/v1/users/${other}/consent/withdraw`, { token: await tok() })).status).toBe(200);
    expect((await simulate(other, [{ type: 'hard_inquiry' }])).body.error?.code).toBe('CONSENT_REQUIRED');
  });
});

/** Actions that fit one user's report (most of the time: an earlier action may close the account a later one names). */
const actionArbitrary = (report: TCreditReport): fc.Arbitrary<TSimulationAction> => {
  const open = report.accounts.filter(isOpen);
  const balances = withBalance(report);
  const cards = openCards(report);
  const options: fc.Arbitrary<TSimulationAction>[] = [
    fc.integer({ min: 1, max: 24 }).map((months) => ({ type: 'pay_on_time' as const, months })),
    fc.integer({ min: 500, max: 20_000 }).map((creditLimit) => ({ type: 'open_credit_card' as const, creditLimit })),
    fc
      .record({
        loanType: fc.constantFrom('auto_loan', 'personal_loan', 'student_loan', 'mortgage') as fc.Arbitrary<
          'auto_loan' | 'personal_loan' | 'student_loan' | 'mortgage'
        >,
        amount: fc.integer({ min: 1_000, max: 50_000 }),
      })
      .map((r) => ({ type: 'take_loan' as const, ...r })),
    fc.constant({ type: 'hard_inquiry' as const }),
  ];
  if (balances.length) {
    options.push(
      fc.tuple(fc.constantFrom(...balances), fc.double({ min: 0.01, max: 0.5, noNaN: true })).map(([a, share]) => ({
        type: 'pay_down_balance' as const,
        accountId: a.accountId,
        amount: Math.max(1, Math.floor(a.balance * share)),
      })),
    );
  }
  if (open.length) {
    options.push(
      fc.constantFrom(...open).map((a) => ({ type: 'close_account' as const, accountId: a.accountId })),
      fc.constantFrom(...open).map((a) => ({ type: 'miss_payment' as const, accountId: a.accountId })),
    );
  }
  if (cards.length) {
    options.push(
      fc.tuple(fc.constantFrom(...cards), fc.integer({ min: 500, max: 10_000 })).map(([a, more]) => ({
        type: 'raise_credit_limit' as const,
        accountId: a.accountId,
        newLimit: (a.creditLimit ?? 0) + more,
      })),
    );
  }
  return fc.oneof(...options);
};

/** A user, a list of actions that fit the user's report, and what to append to it. */
const scenario = <T>(extra: (report: TCreditReport) => fc.Arbitrary<T>) =>
  fc.integer({ min: 0, max: IDENTITIES.length - 1 }).chain((i) => {
    const { userId, report } = users[i] as (typeof users)[number];
    return fc.record({
      userId: fc.constant(userId),
      actions: fc.array(actionArbitrary(report), { minLength: 0, maxLength: 4 }),
      extra: extra(report),
    });
  });

/** The simulated score of `actions`, or undefined when they do not fit the file (a 400). */
const scoreAfter = async (userId: string, actions: unknown[]): Promise<number | undefined> => {
  if (actions.length === 0) return (await scoreOf(userId)).score;
  const res = await simulate(userId, actions);
  if (res.status === 400) return undefined;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.simulatedScore).toBeGreaterThanOrEqual(300);
  expect(res.body.data.simulatedScore).toBeLessThanOrEqual(850);
  return res.body.data.simulatedScore;
};

const RUNS = { numRuns: 25, seed: 20261123 };

describe('the simulation’s direction, as properties of the endpoint', () => {
  it('never leaves 300–850, and paying a balance down never lowers the score', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        scenario((report) =>
          withBalance(report).length
            ? fc.tuple(fc.constantFrom(...withBalance(report)), fc.double({ min: 0.05, max: 1, noNaN: true }))
            : fc.constant(undefined),
        ),
        async ({ userId, actions, extra }) => {
          const without = await scoreAfter(userId, actions);
          if (without === undefined || !extra) return;
          const [account, share] = extra;
          const payDown = {
            type: 'pay_down_balance',
            accountId: account.accountId,
            amount: Math.max(1, Math.floor(account.balance * share)),
          };
          const withPayDown = await scoreAfter(userId, [...actions, payDown]);
          if (withPayDown === undefined) return;
          expect(withPayDown).toBeGreaterThanOrEqual(without);
          compared += 1;
        },
      ),
      RUNS,
    );
    // Most generated lists fit their file: the property was checked, not skipped.
    expect(compared).toBeGreaterThan(RUNS.numRuns / 2);
  });

  it('a missed payment or a hard inquiry never raises the score', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        scenario((report) => {
          const open = report.accounts.filter(isOpen);
          return fc.oneof(
            fc.constant<Record<string, unknown>>({ type: 'hard_inquiry' }),
            ...(open.length
              ? [fc.constantFrom(...open).map((a): Record<string, unknown> => ({ type: 'miss_payment', accountId: a.accountId }))]
              : []),
          );
        }),
        async ({ userId, actions, extra }) => {
          const without = await scoreAfter(userId, actions);
          if (without === undefined) return;
          const withHarm = await scoreAfter(userId, [...actions, extra]);
          if (withHarm === undefined) return;
          expect(withHarm).toBeLessThanOrEqual(without);
          compared += 1;
        },
      ),
      RUNS,
    );
    expect(compared).toBeGreaterThan(RUNS.numRuns / 2);
  });
});

/** Everything a pull or a stored write would leave behind for the user. */
const footprint = async (userId: string) => {
  const count = async (sql: string) => Number((await app.db.query<{ n: number }>(sql, [userId])).rows[0]?.n);
  return {
    bureauPulls: counting.creditPullsOf(userId),
    allPulls: counting.total(),
    auditedPulls: await auditEntriesOf(app, 'bureau.pull', userId),
    scores: await count('select count(*)::int as n from score_history where user_id = $1'),
    events: await count(`select count(*)::int as n from outbox_events where data->>'userId' = $1`),
    alerts: await count('select count(*)::int as n from alerts where user_id = $1'),
    snapshot: (await app.db.query('select as_of, taken_at from credit_snapshots where user_id = $1', [userId])).rows,
  };
};
